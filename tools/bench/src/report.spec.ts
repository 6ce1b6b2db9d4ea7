import { describe, expect, it } from 'vitest';
import { judge, type EndpointResult } from './report.js';
import { median, ratio } from './stats.js';

const side = (requestsPerSecond: number, p99Ms: number, errors = 0) => ({
  requestsPerSecond,
  p50Ms: p99Ms / 2,
  p99Ms,
  errors,
});

const row = (overrides: Partial<EndpointResult> = {}): EndpointResult => ({
  endpoint: 'GET /:code',
  ceiling: 'node:http + Map',
  target: { minRatio: 0.7, maxP99Ratio: 1.5 },
  pawlink: side(21_000, 3),
  ceilingSide: side(30_000, 2),
  generatorMaxRequestsPerSecond: 65_000,
  ...overrides,
});

describe('median and ratio', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('divides, and says nothing against a zero baseline', () => {
    expect(ratio(21_000, 30_000)).toBeCloseTo(0.7);
    expect(ratio(1, 0)).toBeNaN();
  });
});

describe('judge', () => {
  it('meets a target when both the throughput and the p99 ratios do', () => {
    expect(judge(row())).toEqual({ ratio: 0.7, p99Ratio: 1.5, verdict: 'met' });
  });

  it('names what missed the target', () => {
    expect(judge(row({ pawlink: side(15_000, 4) })).verdict).toBe('not met (ratio, p99)');
    expect(judge(row({ target: { minRatio: 0.5 }, pawlink: side(15_000, 40) })).verdict).toBe('met');
  });

  it('reports a reference row (no target) with its ratios and no verdict on them', () => {
    expect(judge(row({ target: null, pawlink: side(6_000, 9) }))).toEqual({
      ratio: 0.2,
      p99Ratio: 4.5,
      verdict: 'reference',
    });
  });

  it('refuses a ratio when the ceiling reaches 90% of the generator maximum', () => {
    expect(judge(row({ ceilingSide: side(58_500, 2) }))).toEqual({
      ratio: null,
      p99Ratio: null,
      verdict: 'generator-bound',
    });
    expect(judge(row({ ceilingSide: side(58_000, 2) })).verdict).toBe('not met (ratio)');
  });

  it('refuses a ratio when requests failed or the answers differ', () => {
    expect(judge(row({ pawlink: side(21_000, 3, 12) })).verdict).toMatch(/^invalid: 12 failed requests/);
    expect(judge(row({ invalid: 'status 404 vs ceiling 302' })).verdict).toBe('invalid: status 404 vs ceiling 302');
  });
});
