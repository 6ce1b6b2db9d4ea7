import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';

export interface ToolRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface ToolOptions {
  signal?: AbortSignal;
  maxStdoutBytes: number;
  /** Fed to the tool's stdin: all at once, or as a stream ends. */
  stdin?: Buffer | Readable;
  /** Sees each piece of the kept output as it comes. */
  onStdout?: (chunk: Buffer) => void;
}

/**
 * Runs ffmpeg or ffprobe, feeding it `stdin` if given, keeping at most `maxStdoutBytes` of its
 * output (it is killed past that) and the start of stderr. Aborting `signal` kills it.
 */
export function runTool(command: string, args: string[], options: ToolOptions): Promise<ToolRun> {
  const { signal, maxStdoutBytes, stdin, onStdout } = options;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' });
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const kept = chunk.subarray(0, Math.max(0, maxStdoutBytes - stdoutBytes));
      stdoutBytes += kept.length;
      chunks.push(kept);
      if (kept.length > 0) onStdout?.(kept);
      if (kept.length < chunk.length) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString();
    });
    // a tool that exits early (bad input, killed) closes the pipe: its exit code says why
    child.stdin.on('error', () => undefined);
    if (stdin instanceof Readable) stdin.pipe(child.stdin);
    else child.stdin.end(stdin);
    child.on('error', (error) => {
      if (signal?.aborted) reject(signal.reason as Error);
      else reject(error);
    });
    child.on('close', (code) => {
      if (signal?.aborted) reject(signal.reason as Error);
      else resolve({ code, stdout: Buffer.concat(chunks), stderr });
    });
  });
}
