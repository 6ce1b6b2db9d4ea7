import { execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@pawlink/test-kit';
import mysql from 'mysql2/promise';
import { isRunning, spawnOwned, stopOwned, waitForExit } from '@pawlink/test-kit';

const run = promisify(execFile);

/** Where the binaries are (Debian puts mariadbd in /usr/sbin, often off PATH). */
export const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

/** The settings every node shares: the shipped file itself, so the suite tests what is deployed. */
const SHARED_CONFIG = path.join(REPO_ROOT, 'infra/galera/galera.cnf');

export interface NodePorts {
  sql: number;
  gcomm: number;
  ist: number;
  sst: number;
  check: number;
}

/** `wsrep_provider_options` of the shipped file as key → value, so per-node keys can be added to it. */
function sharedProviderOptions(): Map<string, string> {
  const line = /^wsrep_provider_options="([^"]*)"/m.exec(readFileSync(SHARED_CONFIG, 'utf8'));
  if (!line) throw new Error(`${SHARED_CONFIG} has no wsrep_provider_options line`);
  return new Map(line[1]!.split(';').map((pair) => pair.split('=', 2) as [string, string]));
}

/** The uid/gid of user mysql (the rsync SST works only when mariadbd runs as the owner of its data directory). */
function mysqlUser(): { uid: number; gid: number } {
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('mysql:'));
  if (!entry) throw new Error('no user mysql: install mariadb-server (scripts/bootstrap.sh does)');
  const [, , uid, gid] = entry.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const isRoot = (): boolean => process.getuid?.() === 0;

/**
 * One private Galera node: its own data directory, SQL, gcomm, IST and SST ports on 127.0.0.1, the
 * shipped galera.cnf plus what a node on a shared machine needs (small buffers, private files).
 */
export class GaleraNode {
  private child: ChildProcess | undefined;
  readonly dir: string;
  readonly dataDir: string;
  readonly errorLog: string;
  private readonly configFile: string;

  constructor(
    readonly name: string,
    baseDir: string,
    readonly ports: NodePorts,
    private readonly clusterAddress: string,
  ) {
    this.dir = path.join(baseDir, name);
    this.dataDir = path.join(this.dir, 'data');
    this.errorLog = path.join(this.dir, 'error.log');
    this.configFile = path.join(this.dir, 'my.cnf');
  }

  get pid(): number | undefined {
    return isRunning(this.child) ? this.child.pid : undefined;
  }

  /** The data directory (owned by mysql when run as root) and this node's config file. */
  async prepare(initialize: boolean): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    const options = sharedProviderOptions();
    options.set('gmcast.listen_addr', `tcp://127.0.0.1:${this.ports.gcomm}`);
    options.set('ist.recv_addr', `127.0.0.1:${this.ports.ist}`);
    options.set('gcache.size', '32M');
    const shared = await readFile(SHARED_CONFIG, 'utf8');
    const own = [
      '',
      '# The suite: one of three nodes on one machine.',
      `datadir=${this.dataDir}`,
      `port=${this.ports.sql}`,
      'bind-address=127.0.0.1',
      `socket=${path.join(this.dir, 'mysqld.sock')}`,
      `pid-file=${path.join(this.dir, 'mysqld.pid')}`,
      `log-error=${this.errorLog}`,
      'skip-name-resolve',
      'performance-schema=OFF',
      'innodb-buffer-pool-size=48M',
      'innodb-log-file-size=16M',
      'innodb-use-native-aio=0',
      'max-connections=300',
      ...(isRoot() ? ['user=mysql'] : []),
      `wsrep_node_name=${this.name}`,
      'wsrep_node_address=127.0.0.1',
      `wsrep_cluster_address=gcomm://${this.clusterAddress}`,
      `wsrep_sst_receive_address=127.0.0.1:${this.ports.sst}`,
      `wsrep_provider_options="${[...options].map(([key, value]) => `${key}=${value}`).join(';')}"`,
      '',
    ];
    await writeFile(this.configFile, `${shared}${own.join('\n')}`);
    if (initialize) {
      await run(INSTALL_DB, [
        `--defaults-file=${this.configFile}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        ...(isRoot() ? ['--user=mysql'] : []),
      ]);
    }
    if (isRoot()) {
      const { uid, gid } = mysqlUser();
      await chownTree(this.dir, uid, gid);
    }
  }

  /** Starts mariadbd (bootstrapping a new cluster, or from a recovered position) and waits until it is Synced. */
  async start(options: { newCluster?: boolean; startPosition?: string; timeoutMs?: number } = {}): Promise<void> {
    if (isRunning(this.child)) throw new Error(`${this.name} is already running`);
    const args = [`--defaults-file=${this.configFile}`];
    if (options.newCluster) args.push('--wsrep-new-cluster');
    if (options.startPosition) args.push(`--wsrep-start-position=${options.startPosition}`);
    this.child = spawnOwned(MARIADBD, args, path.join(this.dir, 'stdout.log'));
    const deadline = Date.now() + (options.timeoutMs ?? 90_000);
    while ((await this.localState()) !== 'Synced') {
      if (!isRunning(this.child)) throw new Error(`${this.name} exited while starting:\n${await this.logTail()}`);
      if (Date.now() > deadline) throw new Error(`${this.name} not Synced in time:\n${await this.logTail()}`);
      await sleep(200);
    }
  }

  /**
   * What `galera_recovery` does after a crash: `mariadbd --wsrep-recover` reads the last committed
   * position from InnoDB; starting with it lets the node rejoin by IST instead of a full SST.
   */
  async recoverPosition(): Promise<string> {
    const recoverLog = path.join(this.dir, 'recover.log');
    await run(MARIADBD, [`--defaults-file=${this.configFile}`, '--wsrep-recover', `--log-error=${recoverLog}`]);
    const found = /WSREP: Recovered position:\s*(\S+:-?\d+)/.exec(await readFile(recoverLog, 'utf8'));
    if (!found) throw new Error(`${this.name}: no recovered position in ${recoverLog}`);
    return found[1]!;
  }

  signal(signal: NodeJS.Signals): void {
    if (isRunning(this.child)) this.child.kill(signal);
  }

  async kill9(): Promise<void> {
    this.signal('SIGKILL');
    await waitForExit(this.child, 10_000);
  }

  stop(): Promise<void> {
    return stopOwned(this.child, 20_000);
  }

  connect(): Promise<mysql.Connection> {
    return mysql.createConnection({ host: '127.0.0.1', port: this.ports.sql, user: 'root', connectTimeout: 2000 });
  }

  /** wsrep_local_state_comment, or undefined when the node does not answer within a second. */
  async localState(): Promise<string | undefined> {
    return (await this.status(['wsrep_local_state_comment']))?.wsrep_local_state_comment;
  }

  /** Some status variables (lower-case names), or undefined when the node does not answer within a second. */
  async status(names: string[]): Promise<Record<string, string> | undefined> {
    let connection: mysql.Connection | undefined;
    const attempt = (async () => {
      connection = await mysql.createConnection({
        host: '127.0.0.1',
        port: this.ports.sql,
        user: 'root',
        connectTimeout: 1000,
      });
      const [rows] = await connection.query<mysql.RowDataPacket[]>(
        `SHOW GLOBAL STATUS WHERE Variable_name IN (${names.map(() => '?').join(',')})`,
        names,
      );
      return Object.fromEntries(rows.map((row) => [String(row.Variable_name).toLowerCase(), String(row.Value)]));
    })().catch(() => undefined);
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000).unref());
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      void attempt.then(() => connection?.destroy());
    }
  }

  async logTail(chars = 4000): Promise<string> {
    return (await readFile(this.errorLog, 'utf8').catch(() => '')).slice(-chars);
  }
}

async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await run('chown', ['-R', `${uid}:${gid}`, dir]);
}

/** A temp directory user mysql can reach (mkdtemp makes it 0700 for root). */
export async function makeReachable(dir: string): Promise<void> {
  if (isRoot()) await run('chmod', ['755', dir]);
}
