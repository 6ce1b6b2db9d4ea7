import { describe, expect, it } from 'vitest';
import { ReusableCounts } from './reusable-counts.js';

const entries = <K>(counts: ReusableCounts<K>): Array<[K, number]> => {
  const seen: Array<[K, number]> = [];
  counts.forEach((key, n) => seen.push([key, n]));
  return seen;
};

describe('ReusableCounts', () => {
  it('adds up counts per name, in the order first counted', () => {
    const counts = new ReusableCounts<string>();
    counts.add('b');
    counts.add('a', 3);
    counts.add('b');
    expect(entries(counts)).toEqual([
      ['b', 2],
      ['a', 3],
    ]);
  });

  it('after a reset shows only what was counted since, and starts each name from zero', () => {
    const counts = new ReusableCounts<string>();
    counts.add('a', 5);
    counts.add('b');
    counts.reset();
    expect(entries(counts)).toEqual([]);
    counts.add('b');
    counts.add('c');
    expect(entries(counts)).toEqual([
      ['b', 1],
      ['c', 1],
    ]);
  });

  it('keeps the names of the last two periods only: a name not counted between two resets is dropped', () => {
    const counts = new ReusableCounts<number>();
    for (let i = 0; i < 100; i++) counts.add(i);
    counts.reset();
    expect(counts.size).toBe(100);
    counts.add(7);
    counts.reset();
    expect(counts.size).toBe(1);
    counts.reset();
    expect(counts.size).toBe(0);
  });
});
