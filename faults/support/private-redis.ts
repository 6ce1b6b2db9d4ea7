import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { findBinary, freePort, OwnedDaemon, redisAnswers } from '@pawlink/test-kit';

const START_TIMEOUT_MS = 15_000;

/** A Redis of the suite's own: private port, data directory under the suite's temp dir. */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Its process: kill9(), signal('SIGSTOP'), ... */
  daemon: OwnedDaemon;
  /** Starts it again on the same port and directory (it replays its append-only file) and waits for PING. */
  restart(): Promise<void>;
  /** True when it answers PING within a second. */
  answers(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The production settings docs/reliability-and-security.md asks for: append-only file fsynced every second, no RDB
 * snapshots, and `noeviction` (BullMQ loses jobs under any other policy).
 */
const durableArgs = (port: number, dir: string): string[] => [
  '--port',
  String(port),
  '--bind',
  '127.0.0.1',
  '--dir',
  dir,
  '--appendonly',
  'yes',
  '--appendfsync',
  'everysec',
  '--save',
  '',
  '--maxmemory-policy',
  'noeviction',
  '--daemonize',
  'no',
  '--logfile',
  '',
];

/** Starts `redis-server` under `baseDir/redis` and waits until it answers. */
export async function startPrivateRedis(baseDir: string): Promise<PrivateRedis> {
  const dir = path.join(baseDir, 'redis');
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const answers = () => redisAnswers(port);
  const daemon = new OwnedDaemon('private redis', {
    command: findBinary('redis-server', 'redis-server'),
    args: durableArgs(port, dir),
    logFile: path.join(dir, 'redis.log'),
    answers,
  });
  await daemon.start(START_TIMEOUT_MS);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    daemon,
    restart: () => daemon.start(START_TIMEOUT_MS),
    answers,
    stop: () => daemon.stop(),
  };
}
