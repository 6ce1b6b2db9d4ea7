import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort, redisAnswers } from '@pawlink/test-kit';
import { Redis } from 'ioredis';

const run = promisify(execFile);
const START_TIMEOUT_MS = 20_000;

/** The first of /usr/bin, /usr/sbin, /usr/local/bin holding `name` (Debian's redis-server and redis-tools). */
function binary(name: string): string {
  for (const dir of ['/usr/bin', '/usr/sbin', '/usr/local/bin']) {
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  throw new Error(`${name} not found: install the Debian package redis-server (scripts/bootstrap.sh does)`);
}

/** Every node this suite started: SIGKILLed if the test process exits before stopping them. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) {
    try {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** One master of the test's cluster. */
export interface ClusterNode {
  host: string;
  port: number;
  dir: string;
  /** A plain connection to this node alone (for CLUSTER INFO, DBSIZE, …); the caller disconnects it. */
  connect(): Redis;
}

export interface LocalRedisCluster {
  nodes: ClusterNode[];
  /** The value of REDIS_CLUSTER_NODES. */
  seeds: string;
  /** Keys stored on each master, in `nodes` order. */
  keysPerNode(): Promise<number[]>;
  /** The master serving the hash slot of `key`. */
  nodeFor(key: string): Promise<ClusterNode>;
  /** kill -9 of one master's process, waiting until it has ended. */
  kill(node: ClusterNode): Promise<void>;
  /** Starts a killed master again (same port, directory and nodes.conf) and waits for cluster_state:ok everywhere. */
  restart(node: ClusterNode): Promise<void>;
  /** Stops exactly the servers it started (SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
}

const plain = (port: number): Redis => new Redis({ host: '127.0.0.1', port, lazyConnect: true, connectTimeout: 1000, commandTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });

async function clusterState(port: number): Promise<string> {
  const client = plain(port);
  client.on('error', () => undefined);
  try {
    await client.connect();
    return /cluster_state:(\w+)/.exec(await client.cluster('INFO'))?.[1] ?? 'unknown';
  } catch {
    return 'unreachable';
  } finally {
    client.disconnect();
  }
}

/**
 * Starts `masters` redis-server processes in cluster mode on private ports (data, nodes.conf and
 * logs under `baseDir`), joins them with `redis-cli --cluster create … --cluster-replicas 0`, and
 * waits until every node reports cluster_state:ok. `noeviction`, as BullMQ needs.
 */
export async function startRedisCluster(baseDir: string, masters = 3): Promise<LocalRedisCluster> {
  const children = new Map<number, ChildProcess>();
  const nodes: ClusterNode[] = [];
  const argsOf = new Map<number, string[]>();
  const spawnNode = (node: ClusterNode): void => {
    const log = openSync(path.join(node.dir, 'redis.log'), 'a');
    try {
      const child = spawn(binary('redis-server'), argsOf.get(node.port) ?? [], { stdio: ['ignore', log, log] });
      children.set(node.port, child);
      live.add(child);
      child.once('exit', () => live.delete(child));
    } finally {
      closeSync(log);
    }
  };
  const ended = (child: ChildProcess | undefined): boolean => child === undefined || child.exitCode !== null || child.signalCode !== null;
  const stopOne = async (child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> => {
    if (!child || ended(child)) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const stop = async (): Promise<void> => {
    await Promise.all([...children.values()].map((child) => stopOne(child, 'SIGTERM')));
  };
  const waitForOk = async (deadline: number): Promise<void> => {
    for (const node of nodes) {
      while ((await clusterState(node.port)) !== 'ok') {
        if (Date.now() > deadline) throw new Error(`the cluster did not reach cluster_state:ok on ${node.port}`);
        await sleep(100);
      }
    }
  };
  try {
    for (let i = 0; i < masters; i++) {
      const dir = path.join(baseDir, `redis-${i}`);
      await mkdir(dir, { recursive: true });
      const [port, busPort] = [await freePort(), await freePort()];
      argsOf.set(port, [
        '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
        '--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, 'nodes.conf'), '--cluster-port', String(busPort),
        // Without replicas a dead master's slots cannot move: the others keep serving theirs.
        '--cluster-node-timeout', '3000', '--cluster-require-full-coverage', 'no',
        '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction', '--daemonize', 'no', '--logfile', '',
      ]);
      const node: ClusterNode = { host: '127.0.0.1', port, dir, connect: () => new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 }) };
      nodes.push(node);
      spawnNode(node);
    }
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (const node of nodes) {
      while (!(await redisAnswers(node.port))) {
        if (Date.now() > deadline) throw new Error(`redis-server on ${node.port} did not start:\n${await readFile(path.join(node.dir, 'redis.log'), 'utf8').catch(() => '')}`);
        await sleep(50);
      }
    }
    await run(binary('redis-cli'), ['--cluster', 'create', ...nodes.map((n) => `${n.host}:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], { timeout: START_TIMEOUT_MS });
    await waitForOk(deadline);
  } catch (error) {
    await stop();
    throw error;
  }
  const onEach = <T>(use: (client: Redis) => Promise<T>, node: ClusterNode): Promise<T> => {
    const client = node.connect();
    return use(client).finally(() => client.disconnect());
  };
  return {
    nodes,
    seeds: nodes.map((n) => `${n.host}:${n.port}`).join(','),
    keysPerNode: () => Promise.all(nodes.map((node) => onEach((client) => client.dbsize(), node))),
    async nodeFor(key) {
      const live = nodes.find((node) => !ended(children.get(node.port)))!;
      const slot = await onEach((client) => client.cluster('KEYSLOT', key), live);
      const ranges = await onEach((client) => client.cluster('SLOTS'), live);
      const owner = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2]?.[1];
      const node = nodes.find((n) => n.port === owner);
      if (!node) throw new Error(`no master serves slot ${slot}`);
      return node;
    },
    kill: (node) => stopOne(children.get(node.port), 'SIGKILL'),
    async restart(node) {
      if (!ended(children.get(node.port))) throw new Error(`redis-server on ${node.port} is still running`);
      spawnNode(node);
      await waitForOk(Date.now() + START_TIMEOUT_MS);
    },
    stop,
  };
}
