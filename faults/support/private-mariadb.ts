import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { findBinary, freePort, OwnedDaemon } from '@pawlink/test-kit';
import mysql from 'mysql2/promise';

/** Crash recovery after kill -9 included. */
const START_TIMEOUT_MS = 30_000;

/** A MariaDB of the suite's own: private port, socket and data directory under the suite's temp dir. */
export interface PrivateMariaDb {
  port: number;
  /** Its process: kill9(), signal('SIGSTOP'), ... */
  daemon: OwnedDaemon;
  /** Starts it again on the same port and data directory (InnoDB recovers what it had committed) and waits until it answers. */
  restart(): Promise<void>;
  /** True when a new connection can run `SELECT 1` within a second. */
  answers(): Promise<boolean>;
  /** A connection as root, for the suite's own checks. */
  connect(): Promise<mysql.Connection>;
  stop(): Promise<void>;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * Options that start in well under a second and keep a 2-core machine free: a small buffer pool
 * and redo log, no performance schema, no binary log, no name resolution. Durability stays the
 * default (`innodb_flush_log_at_trx_commit=1`): a committed row must survive kill -9.
 */
const serverArgs = (dir: string, port: number): string[] => [
  '--no-defaults',
  `--datadir=${path.join(dir, 'data')}`,
  `--port=${port}`,
  '--bind-address=127.0.0.1',
  `--socket=${path.join(dir, 'mysqld.sock')}`,
  `--pid-file=${path.join(dir, 'mysqld.pid')}`,
  `--log-error=${path.join(dir, 'error.log')}`,
  '--skip-name-resolve',
  '--skip-log-bin',
  '--performance-schema=OFF',
  '--innodb-buffer-pool-size=32M',
  '--innodb-log-file-size=16M',
  // Containers often refuse the Linux AIO contexts InnoDB asks for.
  '--innodb-use-native-aio=0',
  '--max-connections=300',
  ...(isRoot() ? ['--user=root'] : []),
];

/** Answers `SELECT 1` on a fresh connection within a second (a paused server does not). */
export async function mariaDbAnswers(port: number): Promise<boolean> {
  let connection: mysql.Connection | undefined;
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 1000).unref());
  const attempt = (async () => {
    connection = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 });
    await connection.query('SELECT 1');
    return true;
  })().catch(() => false);
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    // A connection still in its handshake with a paused server is dropped, not waited for.
    void attempt.then(() => connection?.destroy());
  }
}

/** `mariadb-install-db` into `baseDir/mariadb/data`, then `mariadbd` on a free port; waits until it answers. */
export async function startPrivateMariaDb(baseDir: string): Promise<PrivateMariaDb> {
  const dir = path.join(baseDir, 'mariadb');
  await mkdir(dir, { recursive: true });
  await promisify(execFile)(findBinary('mariadb-install-db', 'mariadb-server'), [
    '--no-defaults',
    `--datadir=${path.join(dir, 'data')}`,
    // root without a password, over TCP from 127.0.0.1 too (no unix_socket-only account).
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
    '--skip-name-resolve',
    '--innodb-log-file-size=16M',
    ...(isRoot() ? ['--user=root'] : []),
  ]);
  const port = await freePort();
  const answers = () => mariaDbAnswers(port);
  const daemon = new OwnedDaemon('private mariadb', {
    command: findBinary('mariadbd', 'mariadb-server'),
    args: serverArgs(dir, port),
    logFile: path.join(dir, 'stdout.log'),
    diagnosticsFile: path.join(dir, 'error.log'),
    answers,
  });
  await daemon.start(START_TIMEOUT_MS);
  return {
    port,
    daemon,
    restart: () => daemon.start(START_TIMEOUT_MS),
    answers,
    connect: () => mysql.createConnection({ host: '127.0.0.1', port, user: 'root' }),
    stop: () => daemon.stop(),
  };
}
