import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@pawlink/test-kit';

/** A redis-server of this test's own, on a free port, its data dir under a temp dir; stopped by its pid only. */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Starts it (again, on the same port) and waits until it answers PING. */
  start(): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** SIGSTOP: the port stays open but nothing answers. */
  pause(): void;
  resume(): void;
  /** Kills it if running and removes its data dir. */
  close(): Promise<void>;
}

/** Whether something on `port` answers a PING with +PONG within `timeoutMs`. */
function pings(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** A private Redis, not yet started. */
export async function privateRedis(): Promise<PrivateRedis> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const running = (): boolean => child !== undefined && child.exitCode === null && child.signalCode === null;
  const kill = async (): Promise<void> => {
    if (!child || !running()) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited(child);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--maxmemory-policy',
          'noeviction',
        ],
        { stdio: 'ignore' },
      );
      const deadline = Date.now() + 10_000;
      while (!(await pings(port))) {
        if (!running() || Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    kill,
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async close() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
