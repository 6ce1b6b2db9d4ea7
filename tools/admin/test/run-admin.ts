import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ADMIN = fileURLToPath(new URL('../../../bin/admin', import.meta.url));

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
  lastLine: string;
}

/** Runs the real `bin/admin` executable with a test context's environment. */
export function runAdmin(env: Record<string, string>, args: string[], cwd = '/'): Promise<AdminResult> {
  return new Promise((resolve) => {
    execFile(ADMIN, args, { env: { ...process.env, ...env }, cwd }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      const lines = stdout.trim().split('\n');
      resolve({ code, stdout, stderr, lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}
