import { describe, expect, it } from 'vitest';
import {
  admitNewValues,
  boundPendingValues,
  breakdownOf,
  DIMENSIONS,
  foldTop,
  splitField,
  STORED_VALUES_PER_DAY,
  type Dimension,
  type ValueCounts,
} from './visit-breakdown.rules.js';

const counts = (entries: Record<string, number>): ValueCounts => new Map(Object.entries(entries));
const numbered = (n: number, visits: (i: number) => number): ValueCounts =>
  new Map(Array.from({ length: n }, (_, i) => [`v${String(i).padStart(3, '0')}`, visits(i)]));

describe('top N and other', () => {
  it('keeps the top values by visits (ties by name), and folds the rest, with any stored other, into other', () => {
    expect(foldTop(counts({ b: 5, a: 5, c: 9, d: 1, other: 2 }), 2)).toEqual([
      ['c', 9],
      ['a', 5],
      ['other', 8],
    ]);
    expect(foldTop(counts({ a: 1, b: 0 }), 10)).toEqual([['a', 1]]);
    expect(foldTop(new Map(), 10)).toEqual([]);
  });

  it('admits new values while fewer than the bound are stored, the most visited first; the rest are stored as other', () => {
    const fresh = counts({ small: 1, big: 7, mid: 3 });
    expect(admitNewValues(fresh, STORED_VALUES_PER_DAY - 2)).toEqual(
      new Map([
        ['big', 'big'],
        ['mid', 'mid'],
        ['small', 'other'],
      ]),
    );
    expect([...admitNewValues(fresh, STORED_VALUES_PER_DAY).values()]).toEqual(['other', 'other', 'other']);
    expect(admitNewValues(counts({ other: 4 }), 0)).toEqual(new Map([['other', 'other']]));
  });

  it('bounds what one flush sends per code, day and dimension, the rest as other; countries and totals untouched', () => {
    const hosts = Array.from({ length: 60 }, (_, i) => ({
      code: 'c',
      day: '2026-11-25',
      field: `r:h${i}`,
      visits: i === 0 ? 10 : 1,
    }));
    const countries = Array.from({ length: 60 }, (_, i) => ({
      code: 'c',
      day: '2026-11-25',
      field: `c:X${i}`,
      visits: 1,
    }));
    const plain = { code: 'c', day: '2026-11-25', field: '', visits: 69 };
    const sent = boundPendingValues([
      plain,
      ...hosts,
      { code: 'c', day: '2026-11-25', field: 'r:other', visits: 5 },
      ...countries,
    ]);
    const referrers = sent.filter((c) => c.field.startsWith('r:'));
    expect(referrers).toHaveLength(STORED_VALUES_PER_DAY);
    expect(referrers.find((c) => c.field === 'r:h0')?.visits).toBe(10);
    expect(referrers.filter((c) => c.field === 'r:other')).toEqual([
      { code: 'c', day: '2026-11-25', field: 'r:other', visits: 5 + 60 - STORED_VALUES_PER_DAY + 1 },
    ]);
    expect(referrers.reduce((sum, c) => sum + c.visits, 0)).toBe(74);
    expect(sent.filter((c) => c.field.startsWith('c:'))).toHaveLength(60);
    expect(sent).toContainEqual(plain);
    const few = [plain, ...hosts.slice(0, 3)];
    expect(boundPendingValues(few)).toEqual(few);
  });

  it('reads pending fields', () => {
    expect(splitField('c:DE')).toEqual({ dimension: 'c', value: 'DE' });
    expect(splitField('r:[2001:db8::1]')).toEqual({ dimension: 'r', value: '[2001:db8::1]' });
    expect(splitField('')).toBeNull();
    expect(splitField('x:1')).toBeNull();
  });
});

describe('the breakdown of a period', () => {
  it('adds each dimension up to the visits: what it lacks is unknown (referrers, countries) or other', () => {
    const found = new Map<Dimension, ValueCounts>([
      [DIMENSIONS.referrer, counts({ direct: 3, 'news.example.com': 4 })],
      [DIMENSIONS.country, counts({ DE: 2, US: 5 })],
      [DIMENSIONS.browser, counts({ Firefox: 6, Safari: 1 })],
      [DIMENSIONS.os, counts({ Linux: 7 })],
      [DIMENSIONS.device, counts({ desktop: 6, mobile: 1 })],
    ]);
    expect(breakdownOf(10, found)).toEqual({
      referrers: [
        { host: 'news.example.com', visits: 4 },
        { host: 'direct', visits: 3 },
        { host: 'unknown', visits: 3 },
      ],
      countries: [
        { country: 'US', visits: 5 },
        { country: 'unknown', visits: 3 },
        { country: 'DE', visits: 2 },
      ],
      browsers: [
        { name: 'Firefox', visits: 6 },
        { name: 'Safari', visits: 1 },
        { name: 'other', visits: 3 },
      ],
      os: [
        { name: 'Linux', visits: 7 },
        { name: 'other', visits: 3 },
      ],
      devices: { desktop: 6, mobile: 1, tablet: 0, other: 3 },
      rules: [],
      default: 10,
    });
  });

  it('names the top 20 referrers and top 10 browsers and OSes; every list still adds up', () => {
    const found = new Map<Dimension, ValueCounts>([
      [DIMENSIONS.referrer, numbered(30, (i) => 100 - i)],
      [DIMENSIONS.browser, numbered(15, (i) => 20 - i)],
      [DIMENSIONS.os, numbered(12, () => 1)],
    ]);
    const visits = [...found.get(DIMENSIONS.referrer)!.values()].reduce((a, b) => a + b, 0);
    const result = breakdownOf(visits, found);
    expect(result.referrers).toHaveLength(21);
    expect(result.referrers[0]).toEqual({ host: 'v000', visits: 100 });
    expect(result.referrers[20]).toEqual({
      host: 'other',
      visits: [...Array(10).keys()].reduce((sum, i) => sum + 100 - 20 - i, 0),
    });
    expect(result.browsers).toHaveLength(11);
    expect(result.os).toHaveLength(11);
    for (const list of [result.referrers, result.countries, result.browsers, result.os])
      expect(list.reduce((sum, entry) => sum + entry.visits, 0)).toBe(visits);
    expect(Object.values(result.devices).reduce((a, b) => a + b, 0)).toBe(visits);
  });

  it('is empty for a period without visits', () => {
    expect(breakdownOf(0, new Map())).toEqual({
      referrers: [],
      countries: [],
      browsers: [],
      os: [],
      devices: { desktop: 0, mobile: 0, tablet: 0, other: 0 },
      rules: [],
      default: 0,
    });
  });

  it('counts visits by rule, the rest (and values that are no rule index) as default', () => {
    const counts = new Map([
      [
        'u' as const,
        new Map([
          ['1', 3],
          ['0', 2],
          ['default', 4],
          ['x', 1],
        ]),
      ],
    ]);
    const result = breakdownOf(10, counts);
    expect(result.rules).toEqual([
      { index: 0, visits: 2 },
      { index: 1, visits: 3 },
    ]);
    expect(result.default).toBe(5);
  });
});
