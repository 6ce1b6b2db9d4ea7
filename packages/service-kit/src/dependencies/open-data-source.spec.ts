import { describe, expect, it } from 'vitest';
import { openDataSource } from './open-data-source.js';

const timedOut = () => Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT', fatal: true });
const denied = () =>
  Object.assign(new Error("Access denied for user 'pawlink'"), {
    code: 'ER_ACCESS_DENIED_ERROR',
    fatal: true,
    sqlMessage: 'Access denied',
  });

/** A data source failing with the given errors first, then opening; a clock moved by the pauses. */
function harness(failures: Array<() => Error>) {
  let clock = 0;
  let attempts = 0;
  const lines: string[] = [];
  const pauses: number[] = [];
  const dataSource = {
    initialize: () => {
      attempts++;
      const failure = failures.shift();
      return failure ? Promise.reject(failure()) : Promise.resolve();
    },
  };
  const options = (waitMs: number) => ({
    name: 'shortener',
    waitMs,
    logger: {
      warn: (message: string) => lines.push(`warn ${message}`),
      info: (message: string) => lines.push(`info ${message}`),
    },
    now: () => clock,
    pause: (ms: number) => {
      pauses.push(ms);
      clock += ms;
      return Promise.resolve();
    },
  });
  return { dataSource, options, lines, pauses, attempts: () => attempts };
}

describe('openDataSource', () => {
  it('tries again while MySQL does not answer, backing off, and logs the wait once and its end', async () => {
    const h = harness([timedOut, timedOut, timedOut, timedOut, timedOut]);
    await openDataSource(h.dataSource, h.options(30_000));
    expect(h.attempts()).toBe(6);
    expect(h.pauses).toEqual([200, 400, 800, 1600, 2000]);
    expect(h.lines).toEqual(['warn database not reachable yet; trying again', 'info database reached']);
  });

  it('gives up with the last error once the wait is over', async () => {
    const h = harness(Array.from({ length: 100 }, () => timedOut));
    await expect(openDataSource(h.dataSource, h.options(3_000))).rejects.toThrow('connect ETIMEDOUT');
    expect(h.pauses.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(3_000);
    expect(h.attempts()).toBe(h.pauses.length + 1);
  });

  it('fails at once on anything but an unreachable MySQL, and with a wait of 0', async () => {
    const wrongPassword = harness([denied]);
    await expect(openDataSource(wrongPassword.dataSource, wrongPassword.options(30_000))).rejects.toThrow(
      'Access denied',
    );
    expect(wrongPassword.attempts()).toBe(1);
    const noWait = harness([timedOut]);
    await expect(openDataSource(noWait.dataSource, noWait.options(0))).rejects.toThrow('ETIMEDOUT');
    expect(noWait.attempts()).toBe(1);
    expect(noWait.lines).toEqual([]);
  });
});
