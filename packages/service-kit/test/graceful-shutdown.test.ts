import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/slow-server.mjs', import.meta.url));

function start(env: Record<string, string> = {}): { child: ChildProcessWithoutNullStreams; output: string[] } {
  const child = spawn(process.execPath, [fixture], { env: { ...process.env, SHUTDOWN_TIMEOUT_MS: '10000', ...env } });
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

/** GET over a keep-alive agent, as pooling clients do; resolves with the status and the Connection header. */
function keepAliveGet(
  port: number,
  path: string,
  agent: http.Agent,
): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

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

  it('tells a keep-alive client to close its connection on the response in flight during the drain', async () => {
    const { child } = start();
    const [, port] = await waitForLine(child, /port=(\d+)/);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await keepAliveGet(Number(port), '/online', agent)).toEqual({ status: 200, connection: 'keep-alive' });
      const inFlight = keepAliveGet(Number(port), '/slow', agent);
      await waitForLine(child, /slow-started/);
      child.kill('SIGTERM');
      expect(await inFlight).toEqual({ status: 200, connection: 'close' });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      agent.destroy();
    }
  });

  it('answers a request sent on an idle pooled keep-alive socket right after SIGTERM, telling the client to close it', async () => {
    const { child } = start({ SHUTDOWN_LAST_CALL_MS: '1000' });
    const [, port] = await waitForLine(child, /port=(\d+)/);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await keepAliveGet(Number(port), '/online', agent)).toEqual({ status: 200, connection: 'keep-alive' });
      child.kill('SIGTERM');
      await waitForLine(child, /shutting down/);
      // The pooled socket is reused: the server answers on it instead of closing it under the request.
      expect(await keepAliveGet(Number(port), '/online', agent)).toEqual({ status: 200, connection: 'close' });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      agent.destroy();
    }
  });

  it('keeps a connection opened during the last call alive until it stops accepting, then tells it to close', async () => {
    const { child } = start({ SHUTDOWN_LAST_CALL_MS: '1500' });
    const [, port] = await waitForLine(child, /port=(\d+)/);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      child.kill('SIGTERM');
      await waitForLine(child, /shutting down/);
      // A client that reconnected during the last call keeps its new socket: were it told to close,
      // its next request would need yet another connection, which the listener may reset as it closes.
      expect(await keepAliveGet(Number(port), '/online', agent)).toEqual({ status: 200, connection: 'keep-alive' });
      const fresh = new http.Agent({ keepAlive: false });
      try {
        while (
          (await keepAliveGet(Number(port), '/online', fresh).catch((error: NodeJS.ErrnoException) => error.code)) !==
          'ECONNREFUSED'
        ) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        fresh.destroy();
      }
      expect(await keepAliveGet(Number(port), '/online', agent)).toEqual({ status: 200, connection: 'close' });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      agent.destroy();
      child.kill('SIGKILL');
    }
  });

  it('resets no request of clients that keep sending through the whole drain, each ending refused', async () => {
    const { child } = start();
    const [, port] = await waitForLine(child, /port=(\d+)/);
    const outcomes = { answered: 0, refused: 0, failed: [] as string[] };
    const client = async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (;;) {
          const outcome = await keepAliveGet(Number(port), '/online', agent).then(
            () => 'answered',
            (error: NodeJS.ErrnoException) => error.code ?? error.message,
          );
          if (outcome === 'answered') outcomes.answered += 1;
          else if (outcome === 'ECONNREFUSED') return void (outcomes.refused += 1);
          else return void outcomes.failed.push(outcome);
        }
      } finally {
        agent.destroy();
      }
    };
    // Told to close during the last call, 40 such clients kept reconnecting, and the listener
    // reset the connections still in its accept queue when it closed (9–39 a drain).
    const clients = Array.from({ length: 40 }, client);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    await Promise.all(clients);
    expect(code).toBe(0);
    expect(outcomes.failed).toEqual([]);
    expect(outcomes.refused).toBe(40);
    expect(outcomes.answered).toBeGreaterThan(40);
  });

  it('joins a second and a third SIGTERM (and a SIGINT) to the shutdown under way: the request finishes, closers run, exit 0', async () => {
    const { child, output } = start();
    const [, port] = await waitForLine(child, /port=(\d+)/);
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
    await waitForLine(child, /slow-started/);
    child.kill('SIGTERM');
    for (const signal of ['SIGTERM', 'SIGTERM', 'SIGINT'] as const) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill(signal);
    }
    const response = await inFlight;
    expect(response.status).toBe(200);
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output.join('')).toContain('closers-ran');
    expect(output.join('')).toContain('already shutting down');
  });

  it('abandons a closer that hangs (a stalled database) with a log line naming it, and still exits 0', async () => {
    const { child, output } = start({ HANG_CLOSER: '1', SHUTDOWN_TIMEOUT_MS: '2000' });
    await waitForLine(child, /port=(\d+)/);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    const lines = output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'a connection did not close in time; abandoned',
        closing: 'database stalled',
      }),
    );
    expect(output.join('')).toContain('closers-ran');
  });

  it('cuts a client that sends its headers too slowly at the configured timeout, not ~30 s later', async () => {
    const { child } = start({ HTTP_HEADERS_TIMEOUT_MS: '1000' });
    const [, port] = await waitForLine(child, /port=(\d+)/);
    try {
      const socket = net.connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write('GET /online HTTP/1.1\r\nHost: x\r\n');
      const started = Date.now();
      const answer: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => answer.push(chunk));
      await once(socket, 'close');
      // Behaviour, not performance: the server gives up after about a second, well before 5 s.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(Buffer.concat(answer).toString()).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      child.kill('SIGKILL');
    }
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
