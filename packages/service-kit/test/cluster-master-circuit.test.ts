import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, redisAnswers } from '@pawlink/test-kit';
import { Redis, type Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClusterMasterCircuit,
  createRedis,
  DependencyUnavailableError,
  loadBaseConfig,
  redisReadiness,
  unavailableDependencyOf,
  type LogSink,
} from '../src/index.js';

/*
 * The master circuit in front of a cluster connection, on a private one-node Redis Cluster that
 * the test pauses (SIGSTOP) and kills. The command timeout is 5 s: what bounds the waits here is
 * the circuit. The bound is 1 s for a whole request (cluster/test/master-failover.test.ts
 * checks that one with replicas under load).
 */

const BOUND_MS = 1000;

let dir: string;
let port: number;
let server: ChildProcess | undefined;
let redis: Cluster;
let circuit: ClusterMasterCircuit;
const lines: Array<{ level: string; message: string; meta?: Record<string, unknown> }> = [];
const logger: LogSink = {
  info: (message, meta) => lines.push({ level: 'info', message, meta }),
  warn: (message, meta) => lines.push({ level: 'warn', message, meta }),
};
const said = (start: string) =>
  lines.filter((line) => line.message.startsWith(start) && line.meta?.node === `127.0.0.1:${port}`);

async function startNode(): Promise<void> {
  const child = spawn(
    'redis-server',
    [
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
      // A node alone has never been told its address; without this it reports its slots on "".
      '--cluster-announce-ip',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
  server = child;
  while (!(await redisAnswers(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server on ${port} exited ${child.exitCode}`);
    await sleep(50);
  }
}

async function clusterOk(): Promise<void> {
  const admin = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await admin.connect();
    // A restarted node has its slots from nodes.conf already.
    if (/cluster_slots_assigned:0\b/.test(await admin.cluster('INFO')))
      await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    while (!/cluster_state:ok/.test(await admin.cluster('INFO'))) await sleep(50);
  } finally {
    admin.disconnect();
  }
}

async function killNode(): Promise<void> {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, 'exit');
  server.kill('SIGKILL');
  await exited;
}

/** The command's error and how long it took to come. */
async function failure(command: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await command;
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('the command succeeded');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-circuit-'));
  port = await freePort();
  await startNode();
  await clusterOk();
  circuit = new ClusterMasterCircuit({ logger });
  const config = loadBaseConfig({ REDIS_CLUSTER_NODES: `127.0.0.1:${port}` });
  redis = createRedis(config.redis, {
    name: 'circuit',
    logger,
    failFast: { connectTimeoutMs: 1000, commandTimeoutMs: 5000 },
    masters: circuit,
  }) as Cluster;
  await redis.set('circuit:probe', 'here');
});

afterAll(async () => {
  redis?.disconnect();
  if (server?.signalCode === null) server.kill('SIGCONT');
  await killNode();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a master that hangs (SIGSTOP)', () => {
  it('fails the commands waiting on it within the bound, the next ones at once, says so on /ready, and serves again once it answers', async () => {
    server!.kill('SIGSTOP');
    try {
      const waiting = await failure(redis.get('circuit:probe'));
      expect(waiting.error).toBeInstanceOf(DependencyUnavailableError);
      expect(waiting.ms).toBeLessThan(BOUND_MS);
      expect(circuit.isDown(`127.0.0.1:${port}`)).toBe(true);
      // Not sent at all: refused by the circuit.
      expect((await failure(redis.get('circuit:probe'))).error).toBeInstanceOf(DependencyUnavailableError);
      expect(await redisReadiness(redis, circuit)()).toBe(false);
    } finally {
      server!.kill('SIGCONT');
    }
    await expect
      .poll(() => redis.get('circuit:probe').catch(() => 'failed'), { timeout: 5000, interval: 50 })
      .toBe('here');
    expect(await redisReadiness(redis, circuit)()).toBe(true);
    expect(said('redis cluster master unavailable')).toHaveLength(1);
    expect(said('redis cluster master answering again')).toHaveLength(1);
  });
});

describe('a master that is killed', () => {
  it('fails commands at once (its slots, then the whole cluster unreachable), says so on /ready, and serves again once it is back', async () => {
    await killNode();
    const first = await failure(redis.get('circuit:probe'));
    expect(unavailableDependencyOf(first.error)).toBe('redis');
    expect(first.ms).toBeLessThan(BOUND_MS);
    // With its only node gone, the connection reconnects; meanwhile nothing waits.
    await expect.poll(() => redis.status, { timeout: 5000, interval: 20 }).not.toBe('ready');
    expect((await failure(redis.get('circuit:probe'))).error).toBeInstanceOf(DependencyUnavailableError);
    expect(await redisReadiness(redis, circuit)()).toBe(false);

    await startNode();
    await clusterOk();
    // The node came back empty.
    await expect
      .poll(() => redis.set('circuit:probe', 'again').catch(() => 'failed'), { timeout: 10_000, interval: 100 })
      .toBe('OK');
    expect(await redisReadiness(redis, circuit)()).toBe(true);
  });
});
