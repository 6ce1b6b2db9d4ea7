/**
 * A reader that stops early (`bin/admin apikey list | grep -q …`, `| head`) closes the pipe under
 * stdout: Node then emits EPIPE as an error event, which unhandled kills the process mid-command
 * and, under `set -o pipefail`, fails the caller's pipeline though the reader had what it wanted.
 * Output nobody reads any more is dropped instead; the command finishes its work and exits with its
 * own status. Any other stream error still surfaces.
 */
export function dropOutputOfClosedPipes(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
      throw error;
    });
  }
}
