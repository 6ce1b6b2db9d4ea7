import { Cluster } from 'ioredis';
import type { RedisClient } from '../redis.js';
import type { ClusterMasterCircuit } from './cluster-master-circuit.js';

/** What each dependency looks like right now, by name (`redis`, `database`, `media`, …). */
export type ReadinessReport = Record<string, 'up' | 'down'>;

/** Asks every dependency of the process; `/ready` answers from it. */
export type Readiness = () => Promise<ReadinessReport>;

/** One dependency's check: resolves true when it answers, in time. */
export type ReadinessCheck = () => Promise<boolean>;

/**
 * Redis answers a PING on this connection (a lost connection is down without asking). On a Redis
 * Cluster with its master circuit: every slot's master answers (a PING of the cluster client
 * reaches one node at random, and says nothing of the others).
 */
export function redisReadiness(redis: RedisClient, masters?: ClusterMasterCircuit): ReadinessCheck {
  return async () => {
    if (masters && redis instanceof Cluster) return masters.check(redis);
    if (redis.status !== 'ready') return false;
    try {
      return (await redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  };
}

/** Runs the named checks side by side; a check that throws counts as down. */
export function readinessOf(checks: Record<string, ReadinessCheck>): Readiness {
  return async () => {
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => checks[name]!().catch(() => false)));
    const report: ReadinessReport = {};
    names.forEach((name, i) => {
      report[name] = results[i] ? 'up' : 'down';
    });
    return report;
  };
}
