import { describe, expect, it } from 'vitest';
import type { UsageCount } from '../domain/usage-count.rules.js';
import { UsageTallyRepository } from './usage-tally.repository.js';

const at = (iso: string) => Date.parse(iso);
const quietLogger = { info: () => undefined, warn: () => undefined };

/** A tally whose Redis is `add` (never reached unless a test flushes). */
const tallyAt = (
  now: () => number,
  add: (chunkId: string, counts: readonly UsageCount[]) => Promise<void> = () => Promise.resolve(),
) => new UsageTallyRepository({ pending: { add }, flushMs: 60_000, logger: quietLogger, now });

describe('UsageTallyRepository', () => {
  it('counts per key, UTC day and field, and drains to empty', () => {
    let now = at('2026-11-23T23:59:59.900Z');
    const tally = tallyAt(() => now);
    tally.add(1, 'images GET /:category');
    tally.add(1, 'images GET /:category');
    tally.add(2, 'images GET /:category');
    now = at('2026-11-24T00:00:00.000Z');
    tally.add(1, 'images GET /:category');
    tally.add(1, 'shortener GET /:code.json');
    expect(tally.unflushedOf(1)).toHaveLength(3);
    expect(tally.drain().sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))).toEqual([
      { keyId: 1, day: '2026-11-23', field: 'images GET /:category', count: 2 },
      { keyId: 1, day: '2026-11-24', field: 'images GET /:category', count: 1 },
      { keyId: 1, day: '2026-11-24', field: 'shortener GET /:code.json', count: 1 },
      { keyId: 2, day: '2026-11-23', field: 'images GET /:category', count: 1 },
    ]);
    expect(tally.drain()).toEqual([]);
    expect(tally.unflushedOf(1)).toEqual([]);
  });

  it('tells keys apart by their whole id (key 1 is not key 12)', () => {
    const tally = tallyAt(() => 0);
    tally.add(12, 'thumbs GET /:id');
    expect(tally.unflushedOf(1)).toEqual([]);
    expect(tally.unflushedOf(12)).toEqual([{ keyId: 12, day: '1970-01-01', field: 'thumbs GET /:id', count: 1 }]);
  });

  it("still holds a key's counts that Redis refused, until a flush gets them there", async () => {
    let redisDown = true;
    const sent: UsageCount[] = [];
    const tally = tallyAt(
      () => 0,
      (_chunkId, counts) => {
        if (redisDown) return Promise.reject(new Error('Connection is closed.'));
        sent.push(...counts);
        return Promise.resolve();
      },
    );
    tally.add(7, 'thumbs GET /:id');
    await tally.flush();
    expect(tally.unflushedOf(7)).toEqual([{ keyId: 7, day: '1970-01-01', field: 'thumbs GET /:id', count: 1 }]);
    redisDown = false;
    await tally.flush();
    expect(tally.unflushedOf(7)).toEqual([]);
    expect(sent).toEqual([{ keyId: 7, day: '1970-01-01', field: 'thumbs GET /:id', count: 1 }]);
  });
});
