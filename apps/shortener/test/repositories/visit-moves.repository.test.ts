import {
  createDataSource,
  createLogger,
  createRedis,
  loadBaseConfig,
  migrateDatabase,
  utcDay,
} from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortenerDatabase } from '../../src/db/shortener.database.js';
import { PendingVisitsRepository } from '../../src/repositories/pending-visits.repository.js';
import { ShortUrlRepository } from '../../src/repositories/short-url.repository.js';
import { VisitRepository } from '../../src/repositories/visit.repository.js';
import { VisitMoverService } from '../../src/services/visit-mover.service.js';
import { VisitStatsService } from '../../src/services/visit-stats.service.js';

let ctx: TestContext;
let redis: RedisClient;
let dataSource: DataSource;
let pending: PendingVisitsRepository;
let visits: VisitRepository;
let shortUrls: ShortUrlRepository;
const logger = createLogger('shortener', 'error', { silent: true });

beforeAll(async () => {
  ctx = await createTestContext('sh-visit-moves');
  const { database, redis: redisConfig } = loadBaseConfig(ctx.env);
  await migrateDatabase(database, shortenerDatabase);
  dataSource = createDataSource(database, shortenerDatabase);
  await dataSource.initialize();
  redis = createRedis(redisConfig, { name: 'visit-moves-test' });
  pending = new PendingVisitsRepository(redis, ctx.redisPrefix);
  visits = new VisitRepository(dataSource);
  shortUrls = new ShortUrlRepository(dataSource);
});
afterAll(async () => {
  await redis.quit();
  await dataSource.destroy();
  await ctx.cleanup();
});

async function entry(code: string): Promise<number> {
  const outcome = await shortUrls.insert({
    code,
    url: `https://example.com/${code}`,
    credit: 'Unknown',
    managementCodeHash: null,
    createdAt: new Date(),
    expiresAt: null,
    maxVisits: null,
  });
  if (!outcome.ok) throw new Error('insert failed');
  return outcome.value.pos;
}

const stats = (): VisitStatsService =>
  new VisitStatsService({ visits, pending, now: Date.now, previewTotalTtlMs: 1, previewTotalCacheSize: 0 });
const mover = (now = Date.now): VisitMoverService =>
  new VisitMoverService({ pending, visits, moveMs: 60_000, logger, now });

describe('visits on their way to MySQL', () => {
  it('applies a flush once however often it is retried', async () => {
    const pos = await entry('flushed');
    await pending.add('flush-1', [{ day: '2026-11-20', code: 'flushed', field: '', visits: 3 }]);
    await pending.add('flush-1', [{ day: '2026-11-20', code: 'flushed', field: '', visits: 3 }]);
    expect(await stats().total('flushed', pos)).toBe(3);
  });

  it('applies a batch once, however many movers try, and counts it once while it moves', async () => {
    const pos = await entry('moved');
    const today = utcDay(Date.now());
    const yesterday = utcDay(Date.now() - 86_400_000);
    await pending.add('flush-2', [
      { day: yesterday, code: 'moved', field: '', visits: 2 },
      { day: today, code: 'moved', field: '', visits: 5 },
    ]);
    expect(await pending.take('batch-a', 100)).toBe(true);
    // Taken but not applied: still counted, from Redis.
    expect(await stats().total('moved', pos)).toBe(7);
    const counts = await pending.batch('batch-a');
    expect(await visits.applyBatch('batch-a', counts, new Date())).toBe(true);
    // Applied and still in Redis: counted once, from MySQL.
    expect(await stats().total('moved', pos)).toBe(7);
    expect(await visits.applyBatch('batch-a', counts, new Date())).toBe(false);
    await pending.forget('batch-a');
    expect(await stats().total('moved', pos)).toBe(7);
    expect(await stats().stats('moved', pos)).toEqual({
      visits: 7,
      days: [
        { date: yesterday, visits: 2 },
        { date: today, visits: 5 },
      ],
      // Counted without where they came from (as before the breakdown existed): unknown / other.
      referrers: [{ host: 'unknown', visits: 7 }],
      countries: [{ country: 'unknown', visits: 7 }],
      browsers: [{ name: 'other', visits: 7 }],
      os: [{ name: 'other', visits: 7 }],
      devices: { desktop: 0, mobile: 0, tablet: 0, other: 7 },
      rules: [],
      default: 7,
    });
  });

  describe('a batch whose transaction failed in a way another try fixes (Galera, a moved writer)', () => {
    const galeraRefusal = (code: string, message: string) =>
      Object.assign(new Error(message), {
        name: 'QueryFailedError',
        driverError: Object.assign(new Error(message), {
          code,
          sqlMessage: message,
          fatal: code.startsWith('PROTOCOL'),
        }),
      });

    /** Visits stored on a data source whose first transaction ends as `first` says. */
    function visitsWithFirstTransaction(first: (run: () => Promise<unknown>) => Promise<unknown>): VisitRepository {
      const transaction = dataSource.transaction.bind(dataSource) as (...args: unknown[]) => Promise<unknown>;
      let done = false;
      const failing = Object.create(dataSource) as DataSource;
      failing.transaction = (...args: unknown[]) => {
        if (done) return transaction(...args);
        done = true;
        return first(() => transaction(...args));
      };
      return new VisitRepository(failing);
    }

    it('counts a batch once when the answer to its commit was lost', async () => {
      const pos = await entry('lost-commit');
      await pending.add('flush-lost', [{ day: '2026-11-23', code: 'lost-commit', field: '', visits: 6 }]);
      expect(await pending.take('batch-lost', 100)).toBe(true);
      const counts = await pending.batch('batch-lost');
      const cut = visitsWithFirstTransaction(async (run) => {
        await run();
        throw galeraRefusal('PROTOCOL_CONNECTION_LOST', 'Connection lost: The server closed the connection.');
      });
      // The retry finds the batch recorded: nothing is added twice.
      expect(await cut.applyBatch('batch-lost', counts, new Date())).toBe(false);
      await pending.forget('batch-lost');
      expect(await stats().total('lost-commit', pos)).toBe(6);
    });

    it('applies a batch whose first transaction failed certification', async () => {
      const pos = await entry('conflicted');
      await pending.add('flush-conflict', [{ day: '2026-11-23', code: 'conflicted', field: '', visits: 2 }]);
      expect(await pending.take('batch-conflict', 100)).toBe(true);
      const counts = await pending.batch('batch-conflict');
      const conflicted = visitsWithFirstTransaction(() =>
        Promise.reject(
          galeraRefusal('ER_LOCK_DEADLOCK', 'Deadlock found when trying to get lock; try restarting transaction'),
        ),
      );
      expect(await conflicted.applyBatch('batch-conflict', counts, new Date())).toBe(true);
      await pending.forget('batch-conflict');
      expect(await stats().total('conflicted', pos)).toBe(2);
    });
  });

  it("finishes another mover's abandoned batch, and drops visits of codes no entry has", async () => {
    const pos = await entry('abandoned');
    await pending.add('flush-3', [
      { day: '2026-11-22', code: 'abandoned', field: '', visits: 4 },
      { day: '2026-11-22', code: 'deleted-meanwhile', field: '', visits: 9 },
    ]);
    // A batch id from a minute ago: its mover is gone.
    const old = `${(Date.now() - 60_000).toString(36)}-0000000000000000`;
    expect(await pending.take(old, 100)).toBe(true);
    await mover().stop();
    expect(await pending.batches()).not.toContain(old);
    expect(await stats().total('abandoned', pos)).toBe(4);
    const [row]: Array<{ n: string | number }> = await dataSource.query(
      'SELECT COUNT(*) AS n FROM short_url_visits WHERE short_url_pos NOT IN (SELECT pos FROM short_urls)',
    );
    expect(Number(row?.n)).toBe(0);
  });

  it('deletes the days of a deleted entry with it', async () => {
    const pos = await entry('gone');
    await pending.add('flush-4', [{ day: '2026-11-22', code: 'gone', field: '', visits: 1 }]);
    await mover().stop();
    expect(await visits.snapshot(pos, { appliedSince: new Date() })).toMatchObject({ total: 1 });
    expect(await shortUrls.delete(pos)).toBe(true);
    expect(await visits.snapshot(pos, { appliedSince: new Date() })).toMatchObject({ total: 0 });
  });

  it('stores at most 50 values per link, day and dimension (countries unbounded), the rest as other, and deletes them with the entry', async () => {
    const pos = await entry('bounded');
    const day = utcDay(Date.now());
    const hosts = (from: number, to: number, visits: number) =>
      Array.from({ length: to - from }, (_, i) => ({ day, code: 'bounded', field: `r:h${from + i}.example`, visits }));
    const countries = Array.from({ length: 60 }, (_, i) => ({
      day,
      code: 'bounded',
      field: `c:${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
      visits: 1,
    }));
    // 45 hosts and direct, then 10 more hosts: 4 of the most visited take the last slots (ties by name).
    expect(
      await visits.applyBatch(
        'bounded-1',
        [
          { day, code: 'bounded', field: '', visits: 60 },
          ...hosts(0, 45, 1),
          { day, code: 'bounded', field: 'r:direct', visits: 15 },
          ...countries,
        ],
        new Date(),
      ),
    ).toBe(true);
    expect(
      await visits.applyBatch(
        'bounded-2',
        [{ day, code: 'bounded', field: '', visits: 35 }, ...hosts(45, 50, 5), ...hosts(50, 55, 2)],
        new Date(),
      ),
    ).toBe(true);
    const rows: Array<{ dimension: string; value: string; visits: string }> = await dataSource.query(
      'SELECT dimension, value, visits FROM short_url_visit_breakdown WHERE short_url_pos = ?',
      [pos],
    );
    const referrers = rows.filter((row) => row.dimension === 'r');
    expect(referrers).toHaveLength(51);
    expect(referrers.find((row) => row.value === 'h48.example')).toMatchObject({ visits: '5' });
    expect(referrers.find((row) => row.value === 'other')).toMatchObject({ visits: '15' });
    expect(referrers.some((row) => row.value === 'h49.example' || row.value === 'h50.example')).toBe(false);
    expect(rows.filter((row) => row.dimension === 'c')).toHaveLength(60);
    const answered = await stats().stats('bounded', pos);
    expect(answered.visits).toBe(95);
    expect(answered.referrers.reduce((total, entry) => total + entry.visits, 0)).toBe(95);
    expect(answered.referrers).toHaveLength(21);
    expect(await shortUrls.delete(pos)).toBe(true);
    const [left]: Array<{ n: string | number }> = await dataSource.query(
      'SELECT COUNT(*) AS n FROM short_url_visit_breakdown WHERE short_url_pos = ?',
      [pos],
    );
    expect(Number(left?.n)).toBe(0);
  });
});
