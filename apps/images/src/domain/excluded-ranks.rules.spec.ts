import { describe, expect, it } from 'vitest';
import { excludedRanks, rankPastExcluded } from './excluded-ranks.rules.js';

describe('excludedRanks', () => {
  it('keeps the distinct ranks inside the eligible range, ascending', () => {
    expect(excludedRanks([7, 2, 2, 9, -1, 4], 8)).toEqual([2, 4, 7]);
    expect(excludedRanks([], 5)).toEqual([]);
  });
});

describe('rankPastExcluded', () => {
  it('is the draw itself when nothing is excluded', () => {
    for (let draw = 0; draw < 5; draw++) expect(rankPastExcluded(draw, [])).toBe(draw);
  });

  it('steps over excluded ranks at the start, in the middle and in runs', () => {
    expect(rankPastExcluded(0, [0])).toBe(1);
    expect(rankPastExcluded(0, [0, 1, 2])).toBe(3);
    expect(rankPastExcluded(1, [1])).toBe(2);
    expect(rankPastExcluded(1, [0, 2, 3])).toBe(4);
    expect(rankPastExcluded(2, [5, 6])).toBe(2);
  });

  it('maps the n - k draws one to one onto the ranks that are not excluded', () => {
    for (const [n, excluded] of [
      [10, [0, 3, 4, 9]],
      [6, [1, 2, 3, 4]],
      [20, [19]],
      [7, [0, 1, 2, 3, 4, 5]],
    ] as Array<[number, number[]]>) {
      const mapped = Array.from({ length: n - excluded.length }, (_, draw) => rankPastExcluded(draw, excluded));
      const expected = Array.from({ length: n }, (_, rank) => rank).filter((rank) => !excluded.includes(rank));
      expect(mapped).toEqual(expected);
    }
  });
});
