import { createRedis, loadBaseConfig } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeasedQuotasRepository } from '../src/repositories/leased-quotas.repository.js';
import { RedisRateLimitWindows, type LeaseRequest } from '../src/repositories/rate-limit.repository.js';
import { leaseViolations, simulateLeasedQuotas } from '../src/testing/index.js';

/*
 * Leased quotas (docs/adr/0021) against real Redis: several instances, each with its own
 * connection, lease blocks of the same windows; the shared count never passes a limit.
 */

let ctx: TestContext;
let clients: RedisClient[];
let prefix: string;
beforeAll(async () => {
  ctx = await createTestContext('auth-leases');
  const config = loadBaseConfig(ctx.env);
  clients = Array.from({ length: 4 }, () => createRedis(config.redis));
  prefix = `${config.redis.prefix}ratelimit:`;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.quit()));
  await ctx.cleanup();
});

describe('leased quotas over one Redis', () => {
  for (const seed of [1, 37, 20261128]) {
    it(`never let the instances together pass a limit (seed ${seed})`, async () => {
      const requests = 4_000;
      const result = await simulateLeasedQuotas({
        clients,
        prefix: `${prefix}sim:`,
        seed,
        limits: [3, 40, 120, 600, 900, 100_000],
        requests,
      });
      expect(leaseViolations(result, requests)).toEqual([]);
      // The run means something: some windows were spent, and blocks saved round trips.
      expect(result.windows.some((window) => window.refused > 0)).toBe(true);
      expect(result.leaseCalls).toBeLessThan(result.windows.reduce((sum, window) => sum + window.admitted, 0) / 2);
    });
  }

  it('refuse a key early on one instance while another holds units of its window, and never more than the limit', async () => {
    const [a, b] = [0, 1].map(
      (i) => new LeasedQuotasRepository({ windows: new RedisRateLimitWindows(clients[i]!, prefix) }),
    );
    const window = { key: 'early:route:{key:early}', windowMs: 60_000, limit: 100 };
    const burst = await Promise.all(Array.from({ length: 40 }, () => Promise.resolve(a!.take(window))));
    expect(burst.every((use) => use.taken)).toBe(true);
    // A busy key: the next lease is larger than the one request that asks for it.
    expect((await a!.take(window)).taken).toBe(true);
    const heldByA = a!.heldOf(window.key);
    expect(heldByA).toBeGreaterThan(0);
    let admittedByB = 0;
    for (;;) {
      const use = await b!.take(window);
      if (!use.taken) {
        expect(use.state.count).toBe(100);
        break;
      }
      admittedByB++;
    }
    expect(41 + heldByA + admittedByB).toBe(100);
    expect(Number(await clients[0]!.get(`${prefix}${window.key}`))).toBe(100);
    // What A holds is still A's to hand out.
    for (let i = 0; i < heldByA; i++) expect((await a!.take(window)).taken).toBe(true);
    expect((await a!.take(window)).taken).toBe(false);
  });

  it('lease blocks of one window with a TTL, never past its limit', async () => {
    const windows = new RedisRateLimitWindows(clients[0]!, prefix);
    const request = (units: number): LeaseRequest => ({
      key: 'direct:route:{key:d}',
      windowMs: 5_000,
      units,
      limit: 10,
    });
    expect(await windows.lease([request(6)])).toEqual([{ granted: 6, count: 6, resetInMs: expect.any(Number) }]);
    const [second] = await windows.lease([request(6)]);
    expect(second).toMatchObject({ granted: 4, count: 10 });
    expect(second!.resetInMs).toBeGreaterThan(0);
    expect(second!.resetInMs).toBeLessThanOrEqual(5_000);
    expect(await windows.lease([request(1)])).toMatchObject([{ granted: 0, count: 10 }]);
    expect(await clients[0]!.pttl(`${prefix}direct:route:{key:d}`)).toBeGreaterThan(0);
  });

  it('refuse a lease of no units or of a window without a limit', async () => {
    const windows = new RedisRateLimitWindows(clients[0]!, prefix);
    await expect(windows.lease([{ key: 'bad:{x}', windowMs: 1_000, units: 0, limit: 5 }])).rejects.toThrow(RangeError);
    await expect(windows.lease([{ key: 'bad:{x}', windowMs: 1_000, units: 1, limit: 0 }])).rejects.toThrow(RangeError);
  });

  it('reject the requests waiting on a lease that fails, and lease again for the next ones', async () => {
    const quotas = new LeasedQuotasRepository({ windows: new RedisRateLimitWindows(clients[0]!, prefix) });
    const window = { key: 'broken:route:{key:broken}', windowMs: 60_000, limit: 100 };
    // A window key holding a non-number makes the lease script fail.
    await clients[0]!.set(`${prefix}${window.key}`, 'not a number');
    const failed = await Promise.allSettled([quotas.take(window), quotas.take(window)]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    await clients[0]!.del(`${prefix}${window.key}`);
    expect(await quotas.take(window)).toMatchObject({ taken: true, state: { count: 1 } });
  });

  it('forget the units held when their window ends: the next window is leased afresh', async () => {
    const quotas = new LeasedQuotasRepository({ windows: new RedisRateLimitWindows(clients[0]!, prefix) });
    const window = { key: 'ending:route:{key:ending}', windowMs: 400, limit: 1_000 };
    await Promise.all(Array.from({ length: 40 }, () => Promise.resolve(quotas.take(window))));
    expect((await quotas.take(window)).taken).toBe(true);
    expect(quotas.heldOf(window.key)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(quotas.heldOf(window.key)).toBe(0);
    const use = await quotas.take(window);
    expect(use.taken).toBe(true);
    // The new window holds what this one lease took: the request, and what is held for the next ones.
    expect(Number(await clients[0]!.get(`${prefix}${window.key}`))).toBe(1 + quotas.heldOf(window.key));
    expect(use.state.count).toBe(1);
  });
});
