import { describe, expect, it } from 'vitest';
import { UsageTally } from './usage-tally.js';

const at = (iso: string) => Date.parse(iso);

describe('UsageTally', () => {
  it('counts per key, UTC day and field, and drains to empty', () => {
    let now = at('2026-11-23T23:59:59.900Z');
    const tally = new UsageTally(() => now);
    tally.add(1, 'images GET /:category');
    tally.add(1, 'images GET /:category');
    tally.add(2, 'images GET /:category');
    now = at('2026-11-24T00:00:00.000Z');
    tally.add(1, 'images GET /:category');
    tally.add(1, 'shortener GET /:code.json');
    expect(tally.ofKey(1)).toHaveLength(3);
    expect(tally.drain().sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))).toEqual([
      { keyId: 1, day: '2026-11-23', field: 'images GET /:category', count: 2 },
      { keyId: 1, day: '2026-11-24', field: 'images GET /:category', count: 1 },
      { keyId: 1, day: '2026-11-24', field: 'shortener GET /:code.json', count: 1 },
      { keyId: 2, day: '2026-11-23', field: 'images GET /:category', count: 1 },
    ]);
    expect(tally.drain()).toEqual([]);
    expect(tally.ofKey(1)).toEqual([]);
  });

  it('tells keys apart by their whole id (key 1 is not key 12)', () => {
    const tally = new UsageTally(() => 0);
    tally.add(12, 'thumbs GET /:id');
    expect(tally.ofKey(1)).toEqual([]);
    expect(tally.ofKey(12)).toEqual([{ keyId: 12, day: '1970-01-01', field: 'thumbs GET /:id', count: 1 }]);
  });
});
