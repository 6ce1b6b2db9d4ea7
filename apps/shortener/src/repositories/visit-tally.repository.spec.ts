import { describe, expect, it } from 'vitest';
import type { VisitCount } from './pending-visits.repository.js';
import { VisitTallyRepository, type DescribeVisitSource } from './visit-tally.repository.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const NOON = Date.UTC(2026, 10, 25, 12);

/** A describer that counts how often each part is described. */
function countingDescriber() {
  const calls = { referrer: 0, agent: 0, country: 0 };
  const describe: DescribeVisitSource = {
    referrer: (host) => (calls.referrer++, `r:${host === '' ? 'direct' : host}`),
    agent: (userAgent) => (
      calls.agent++,
      userAgent.startsWith('Mobile') ? ['b:Safari', 'o:iOS', 'd:mobile'] : ['b:Firefox', 'o:Linux', 'd:desktop']
    ),
    country: (address) => (calls.country++, address.startsWith('10.') ? 'c:DE' : 'c:unknown'),
  };
  return { calls, describe };
}

const tallyWith = (describe?: DescribeVisitSource) =>
  new VisitTallyRepository({
    pending: { add: () => Promise.resolve() },
    flushMs: 60_000,
    logger: silent,
    now: () => NOON,
    ...(describe ? { describe } : {}),
  });

const byField = (counts: readonly VisitCount[], code: string) =>
  Object.fromEntries(counts.filter((count) => count.code === code).map((count) => [count.field, count.visits]));

describe('VisitTallyRepository', () => {
  it('adds up each dimension of the breakdown to the code visits, describing each distinct part once', () => {
    const { calls, describe } = countingDescriber();
    const tally = tallyWith(describe);
    for (let i = 0; i < 30; i++)
      tally.add('abc', i % 3 === 0 ? '' : 'news.example', i % 2 === 0 ? 'Mobile Safari' : 'Firefox', `10.0.0.${i % 5}`);
    for (let i = 0; i < 4; i++) tally.add('xyz', 'blog.example', 'Firefox', `192.0.2.${i}`);
    const counts = tally.drain();

    expect(counts.every((count) => count.day === '2026-11-25')).toBe(true);
    expect(byField(counts, 'abc')).toEqual({
      '': 30,
      'r:direct': 10,
      'r:news.example': 20,
      'b:Safari': 15,
      'o:iOS': 15,
      'd:mobile': 15,
      'b:Firefox': 15,
      'o:Linux': 15,
      'd:desktop': 15,
      'c:DE': 30,
    });
    expect(byField(counts, 'xyz')).toEqual({
      '': 4,
      'r:blog.example': 4,
      'b:Firefox': 4,
      'o:Linux': 4,
      'd:desktop': 4,
      'c:unknown': 4,
    });
    // abc: 2 hosts, 2 agents, 5 addresses; xyz: 1, 1, 4.
    expect(calls).toEqual({ referrer: 3, agent: 3, country: 9 });
    // Counts hold fields, never the addresses themselves.
    expect(JSON.stringify(counts)).not.toMatch(/10\.0\.0\.|192\.0\.2\./);
  });

  it('counts only the visits without a describer, and empties on drain', () => {
    const tally = tallyWith();
    tally.add('abc', 'news.example', 'Firefox', '10.0.0.1');
    tally.add('abc');
    expect(tally.drain()).toEqual([{ day: '2026-11-25', code: 'abc', field: '', visits: 2 }]);
    expect(tally.drain()).toEqual([]);
  });

  it("folds a code's referrers past the stored bound into OTHER when drained, keeping its total", () => {
    const { describe } = countingDescriber();
    const tally = tallyWith(describe);
    for (let i = 0; i < 60; i++) tally.add('abc', `site${i}.example`, 'Firefox', '10.0.0.1');
    tally.add('abc', 'site0.example', 'Firefox', '10.0.0.1');
    const referrers = tally.drain().filter((count) => count.field.startsWith('r:'));
    expect(referrers).toHaveLength(50);
    expect(referrers.reduce((sum, count) => sum + count.visits, 0)).toBe(61);
    expect(referrers.find((count) => count.field === 'r:site0.example')?.visits).toBe(2);
    expect(referrers.find((count) => count.field === 'r:other')?.visits).toBe(11);
  });

  it('sends a code visited again after a flush only the visits since, from the same tally', () => {
    const tally = tallyWith(countingDescriber().describe);
    tally.add('abc', 'news.example', 'Firefox', '10.0.0.1');
    tally.drain();
    tally.add('abc', '', 'Firefox', '10.0.0.2');
    expect(byField(tally.drain(), 'abc')).toEqual({
      '': 1,
      'r:direct': 1,
      'b:Firefox': 1,
      'o:Linux': 1,
      'd:desktop': 1,
      'c:DE': 1,
    });
  });
});
