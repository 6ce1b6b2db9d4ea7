import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/slow-server.mjs', import.meta.url));

function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = pattern.exec(buffer);
      if (match) {
        child.stdout.off('data', onData);
        resolve(match);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before ${pattern}: ${buffer}`)));
  });
}

describe('graceful shutdown', () => {
  it('finishes an in-flight request after SIGTERM, runs closers and exits 0', async () => {
    const child = spawn(process.execPath, [fixture], { env: { ...process.env, SHUTDOWN_TIMEOUT_MS: '10000' } });
    const output: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const [, port] = await waitForLine(child, /port=(\d+)/);
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
    await waitForLine(child, /slow-started/);
    child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, slow: true });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(output.join('')).toContain('closers-ran');
    await expect(fetch(`http://127.0.0.1:${port}/online`)).rejects.toThrow();
  });

  it('exits non-zero naming the variable when configuration is bad', async () => {
    const child = spawn(process.execPath, [fixture], { env: { ...process.env, IMAGES_PORT: 'eighty' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).not.toBe(0);
    expect(stderr).toContain('IMAGES_PORT');
  });
});
