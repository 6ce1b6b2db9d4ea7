import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ADMIN = fileURLToPath(new URL('../../../bin/admin', import.meta.url));

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
  lastLine: string;
}

/**
 * Runs the real `bin/admin` executable with a test context's environment; `onStderr`, when given,
 * sees its error output so far each time more arrives (to act while the command waits).
 */
export function runAdmin(
  env: Record<string, string>,
  args: string[],
  cwd = '/',
  onStderr?: (stderrSoFar: string) => void,
): Promise<AdminResult> {
  return new Promise((resolve) => {
    const child = spawn(ADMIN, args, { env: { ...process.env, ...env }, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr);
    });
    // Not started at all (a missing executable): 'close' follows 'error' with no exit code.
    child.on('error', (error) => (stderr += error.message));
    child.on('close', (code) => {
      const lines = stdout.trim().split('\n');
      resolve({ code: code ?? 1, stdout, stderr, lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}
