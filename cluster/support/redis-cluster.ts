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
// Only a deadline: on a busy machine `redis-cli --cluster create` and the replicas' first sync take a while.
const START_TIMEOUT_MS = 60_000;

/** The first of /usr/bin, /usr/sbin, /usr/local/bin holding `name` (Debian's redis-server and redis-tools). */
function binary(name: string): string {
  for (const dir of ['/usr/bin', '/usr/sbin', '/usr/local/bin']) {
    if (existsSync(`${dir}/${name}`)) return `${dir}/${name}`;
  }
  throw new Error(`${name} not found: install the Debian package redis-server (scripts/bootstrap.sh does)`);
}

/** Every node this suite started: SIGKILLed if the test process exits before stopping them (a stopped one too). */
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

/** One node of the test's cluster, a master or a replica. */
export interface ClusterNode {
  host: string;
  port: number;
  dir: string;
  /** A plain connection to this node alone (for CLUSTER INFO, DBSIZE, …), with 2 s timeouts; the caller disconnects it. */
  connect(): Redis;
}

export interface RedisClusterOptions {
  /** Default 3. */
  masters?: number;
  /** Replicas per master (default 0). With them, Redis fails a master over to its replica by itself. */
  replicasPerMaster?: number;
  /** `cluster-node-timeout`: how long a master may not answer before the others count it failed (default 3000). */
  nodeTimeoutMs?: number;
}

export interface LocalRedisCluster {
  /** Every node, masters and replicas, in start order. */
  nodes: ClusterNode[];
  /** The value of REDIS_CLUSTER_NODES. */
  seeds: string;
  /** Keys stored on each node, in `nodes` order. */
  keysPerNode(): Promise<number[]>;
  /** The master serving the hash slot of `key`, as a node that answers sees it. */
  nodeFor(key: string): Promise<ClusterNode>;
  /** The replicas of `master`, as a node that answers sees them. */
  replicasOf(master: ClusterNode): Promise<ClusterNode[]>;
  /** `master` (master) or `slave` (replica), as the node itself says; undefined when it does not answer. */
  roleOf(node: ClusterNode): Promise<string | undefined>;
  /** kill -9 of one node's process, waiting until it has ended. */
  kill(node: ClusterNode): Promise<void>;
  /** SIGSTOP: the process stays, with its connections open, and answers nothing (a hung server). */
  pause(node: ClusterNode): void;
  /** SIGCONT of a paused node. */
  resume(node: ClusterNode): void;
  /** Starts a killed node again (same port, directory and nodes.conf) and waits for cluster_state:ok on every running node. */
  restart(node: ClusterNode): Promise<void>;
  /** Waits until the replica `node` has its link to its master up (the first sync done). */
  synced(node: ClusterNode): Promise<void>;
  /** Stops exactly the servers it started (a paused one is continued first; SIGTERM, SIGKILL after 5 s). */
  stop(): Promise<void>;
}

const plain = (port: number): Redis =>
  new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });

/** One question to one node on a connection of its own; undefined when it does not answer. */
async function ask<T>(port: number, question: (client: Redis) => Promise<T>): Promise<T | undefined> {
  const client = plain(port);
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await question(client);
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

async function clusterState(port: number): Promise<string> {
  const info = await ask(port, (client) => client.cluster('INFO'));
  return info === undefined ? 'unreachable' : (/cluster_state:(\w+)/.exec(info)?.[1] ?? 'unknown');
}

/**
 * Starts `masters × (1 + replicasPerMaster)` redis-server processes in cluster mode on private
 * ports (data, nodes.conf and logs under `baseDir`), joins them with `redis-cli --cluster create …
 * --cluster-replicas <replicasPerMaster>`, and waits until every node reports cluster_state:ok and
 * every replica has synced. `noeviction`, as BullMQ needs.
 */
export async function startRedisCluster(
  baseDir: string,
  options: RedisClusterOptions = {},
): Promise<LocalRedisCluster> {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 0;
  const children = new Map<number, ChildProcess>();
  const paused = new Set<number>();
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
  const ended = (child: ChildProcess | undefined): boolean =>
    child === undefined || child.exitCode !== null || child.signalCode !== null;
  const answering = (node: ClusterNode): boolean => !ended(children.get(node.port)) && !paused.has(node.port);
  const stopOne = async (port: number, signal: NodeJS.Signals): Promise<void> => {
    const child = children.get(port);
    if (!child || ended(child)) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    // A stopped process acts on nothing but SIGKILL until it is continued.
    if (paused.delete(port)) child.kill('SIGCONT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const stop = async (): Promise<void> => {
    await Promise.all([...children.keys()].map((port) => stopOne(port, 'SIGTERM')));
  };
  const waitForOk = async (deadline: number): Promise<void> => {
    for (const node of nodes.filter(answering)) {
      while ((await clusterState(node.port)) !== 'ok') {
        if (Date.now() > deadline) throw new Error(`the cluster did not reach cluster_state:ok on ${node.port}`);
        await sleep(100);
      }
    }
  };
  const synced = async (node: ClusterNode, deadline = Date.now() + START_TIMEOUT_MS): Promise<void> => {
    for (;;) {
      const info = await ask(node.port, (client) => client.info('replication'));
      if (info?.includes('role:slave') && info.includes('master_link_status:up')) return;
      if (Date.now() > deadline) throw new Error(`the replica on ${node.port} did not sync:\n${info ?? 'no answer'}`);
      await sleep(100);
    }
  };
  try {
    for (let i = 0; i < masters * (1 + replicasPerMaster); i++) {
      const dir = path.join(baseDir, `redis-${i}`);
      await mkdir(dir, { recursive: true });
      const [port, busPort] = [await freePort(), await freePort()];
      argsOf.set(port, [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        path.join(dir, 'nodes.conf'),
        '--cluster-port',
        String(busPort),
        '--cluster-node-timeout',
        String(options.nodeTimeoutMs ?? 3000),
        ...(replicasPerMaster === 0
          ? // Without replicas a dead master's slots cannot move: the others keep serving theirs.
            ['--cluster-require-full-coverage', 'no']
          : // A replica takes over however long its link was down (its data is caches, limits and the queue), and syncs at once.
            ['--cluster-replica-validity-factor', '0', '--repl-diskless-sync-delay', '0']),
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
        '--daemonize',
        'no',
        '--logfile',
        '',
      ]);
      const node: ClusterNode = {
        host: '127.0.0.1',
        port,
        dir,
        connect: () =>
          new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000 }),
      };
      nodes.push(node);
      spawnNode(node);
    }
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (const node of nodes) {
      while (!(await redisAnswers(node.port))) {
        // A node that exited (a port it could not bind, say) will not answer: say so now, with its log.
        if (ended(children.get(node.port)) || Date.now() > deadline) {
          throw new Error(
            `redis-server on ${node.port} did not start:\n${await readFile(path.join(node.dir, 'redis.log'), 'utf8').catch(() => '')}`,
          );
        }
        await sleep(50);
      }
    }
    await run(
      binary('redis-cli'),
      [
        '--cluster',
        'create',
        ...nodes.map((n) => `${n.host}:${n.port}`),
        '--cluster-replicas',
        String(replicasPerMaster),
        '--cluster-yes',
      ],
      { timeout: START_TIMEOUT_MS },
    );
    await waitForOk(deadline);
  } catch (error) {
    await stop();
    throw error;
  }
  const onEach = <T>(use: (client: Redis) => Promise<T>, node: ClusterNode): Promise<T> => {
    const client = node.connect();
    return use(client).finally(() => client.disconnect());
  };
  /** CLUSTER NODES as an answering node sees it: `port role masterPort|-` per node. */
  const topology = async (): Promise<Array<{ port: number; role: string; masterId: string; id: string }>> => {
    for (const node of nodes.filter(answering)) {
      const text = await ask(node.port, async (client) => String(await client.cluster('NODES')));
      if (text === undefined) continue;
      return text
        .trim()
        .split('\n')
        .map((line) => {
          const [id = '', address = '', flags = '', masterId = ''] = line.split(' ');
          return {
            id,
            port: Number(/:(\d+)@/.exec(address)?.[1]),
            role: flags.includes('master') ? 'master' : 'slave',
            masterId,
          };
        });
    }
    throw new Error('no node of the cluster answers');
  };
  const byPort = (port: number): ClusterNode => {
    const node = nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node of the cluster listens on ${port}`);
    return node;
  };
  const replicaDeadline = Date.now() + START_TIMEOUT_MS;
  const replicas = (await topology()).filter((entry) => entry.role === 'slave');
  await Promise.all(replicas.map((entry) => synced(byPort(entry.port), replicaDeadline))).catch(
    async (error: unknown) => {
      await stop();
      throw error;
    },
  );
  return {
    nodes,
    seeds: nodes.map((n) => `${n.host}:${n.port}`).join(','),
    keysPerNode: () => Promise.all(nodes.map((node) => onEach((client) => client.dbsize(), node))),
    async nodeFor(key) {
      for (const node of nodes.filter(answering)) {
        const slots = await ask(
          node.port,
          async (client) => [await client.cluster('KEYSLOT', key), await client.cluster('SLOTS')] as const,
        );
        if (slots === undefined) continue;
        const [slot, ranges] = slots;
        const owner = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2]?.[1];
        if (owner === undefined) throw new Error(`no master serves slot ${slot}`);
        return byPort(owner);
      }
      throw new Error('no node of the cluster answers');
    },
    async replicasOf(master) {
      const entries = await topology();
      const id = entries.find((entry) => entry.port === master.port)?.id;
      return entries
        .filter((entry) => entry.role === 'slave' && entry.masterId === id)
        .map((entry) => byPort(entry.port));
    },
    async roleOf(node) {
      const role = await ask(node.port, (client) => client.role());
      return typeof role?.[0] === 'string' ? role[0] : undefined;
    },
    kill: (node) => stopOne(node.port, 'SIGKILL'),
    pause(node) {
      const child = children.get(node.port);
      if (ended(child)) throw new Error(`redis-server on ${node.port} is not running`);
      paused.add(node.port);
      child!.kill('SIGSTOP');
    },
    resume(node) {
      if (paused.delete(node.port)) children.get(node.port)?.kill('SIGCONT');
    },
    async restart(node) {
      if (!ended(children.get(node.port))) throw new Error(`redis-server on ${node.port} is still running`);
      spawnNode(node);
      await waitForOk(Date.now() + START_TIMEOUT_MS);
    },
    synced: (node) => synced(node),
    stop,
  };
}
