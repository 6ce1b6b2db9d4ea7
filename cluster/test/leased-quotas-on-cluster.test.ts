import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { leaseViolations, simulateLeasedQuotas } from '@pawlink/auth/testing';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type LocalRedisCluster } from '../support/redis-cluster.js';

/*
 * Leased rate-limit quotas (docs/adr/0021) on a 3-master Redis Cluster: several instances, each
 * with its own cluster connection, lease blocks of windows whose identities (hash tags) spread over
 * the masters; one turn's leases go to each slot in calls of their own, and the shared count never
 * passes a limit.
 */

let workDir: string;
let cluster: LocalRedisCluster;
let clients: Cluster[];

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-leases-'));
  cluster = await startRedisCluster(workDir);
  const seeds = cluster.seeds.split(',').map((seed) => {
    const [host, port] = seed.split(':');
    return { host: host!, port: Number(port) };
  });
  clients = Array.from({ length: 3 }, () => new Cluster(seeds, { enableAutoPipelining: true }));
});

afterAll(async () => {
  await Promise.all((clients ?? []).map((client) => client.quit()));
  await cluster?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('leased quotas on a Redis Cluster', () => {
  it('never let the instances together pass a limit, windows spread over the masters', async () => {
    const requests = 3_000;
    const result = await simulateLeasedQuotas({
      clients,
      prefix: 'leases:',
      seed: 4242,
      limits: [5, 60, 200, 700, 50_000, 2, 90],
      requests,
    });
    expect(leaseViolations(result, requests)).toEqual([]);
    expect(result.windows.some((window) => window.refused > 0)).toBe(true);
    // The windows' keys live on more than one master: the leases were routed per slot.
    expect((await cluster.keysPerNode()).filter((count) => count > 0).length).toBeGreaterThan(1);
  });
});
