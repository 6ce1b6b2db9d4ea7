import { describe, expect, it } from 'vitest';
import { KeyUsageService } from './key-usage.service.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('KeyUsageService', () => {
  const service = (applied: string[]) =>
    new KeyUsageService({
      now: () => NOW,
      usage: {
        snapshot: () =>
          Promise.resolve({
            counts: [
              { keyId: 1, day: '2026-11-22', field: 'images GET /:category', count: 4 },
              { keyId: 1, day: '2026-11-23', field: 'thumbs GET /:id', count: 1 },
            ],
            applied: new Set(applied),
          }),
      },
      pending: {
        pendingOf: () =>
          Promise.resolve({
            pending: [{ keyId: 1, day: '2026-11-23', field: 'images GET /:category', count: 2 }],
            batches: new Map([['b1', [{ keyId: 1, day: '2026-11-23', field: 'images GET /:category', count: 3 }]]]),
          }),
      },
      unflushedOf: () => [{ keyId: 1, day: '2026-11-23', field: 'images GET /status', count: 1 }],
    });

  it('adds MySQL, Redis (batches MySQL lacks) and the unflushed tally, for one service', async () => {
    const usage = await service([]).ofKey(1, { service: 'images', dayCount: 30 });
    expect(usage).toEqual({
      service: 'images',
      today: { date: '2026-11-23', total: 6, routes: { 'GET /:category': 5, 'GET /status': 1 } },
      days: [
        { date: '2026-11-22', total: 4, routes: { 'GET /:category': 4 } },
        { date: '2026-11-23', total: 6, routes: { 'GET /:category': 5, 'GET /status': 1 } },
      ],
    });
  });

  it('skips a batch MySQL already applied, and names routes with their service across services', async () => {
    const usage = await service(['b1']).ofKey(1, { service: null, dayCount: 1 });
    expect(usage.days).toEqual([
      {
        date: '2026-11-23',
        total: 4,
        routes: { 'images GET /:category': 2, 'images GET /status': 1, 'thumbs GET /:id': 1 },
      },
    ]);
  });

  it('names routes as docs/api.md does, counts recorded under older names included (never `GET /*splat`)', async () => {
    const counts = [
      { keyId: 1, day: '2026-11-23', field: 'images GET /*splat', count: 2 },
      { keyId: 1, day: '2026-11-23', field: 'images GET /:category', count: 3 },
      { keyId: 1, day: '2026-11-23', field: 'images GET /*category', count: 1 },
      { keyId: 1, day: '2026-11-23', field: 'thumbs GET /check/:first/:second', count: 4 },
    ];
    const older = new KeyUsageService({
      now: () => NOW,
      usage: { snapshot: () => Promise.resolve({ counts, applied: new Set() }) },
      pending: { pendingOf: () => Promise.resolve({ pending: [], batches: new Map() }) },
    });
    expect((await older.ofKey(1, { service: null, dayCount: 1 })).today.routes).toEqual({
      'images GET /:category': 6,
      'thumbs GET /check/:md5/:type': 4,
    });
    expect((await older.ofKey(1, { service: 'images', dayCount: 1 })).today.routes).toEqual({ 'GET /:category': 6 });
  });

  it('gives today as zero when the key was not used', async () => {
    const empty = new KeyUsageService({
      now: () => NOW,
      usage: { snapshot: () => Promise.resolve({ counts: [], applied: new Set() }) },
      pending: { pendingOf: () => Promise.resolve({ pending: [], batches: new Map() }) },
    });
    expect(await empty.ofKey(9, { service: 'thumbs', dayCount: 30 })).toEqual({
      service: 'thumbs',
      today: { date: '2026-11-23', total: 0, routes: {} },
      days: [],
    });
  });
});
