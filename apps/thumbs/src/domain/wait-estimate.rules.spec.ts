import { describe, expect, it } from 'vitest';
import { estimateWaitMs, MIN_WAIT_MS } from './wait-estimate.rules.js';

describe('estimateWaitMs', () => {
  it('gives a job at the front of an idle queue one average duration', () => {
    expect(estimateWaitMs({ state: 'waiting', averageJobMs: 4000, slots: 1, jobsAhead: 0 })).toBe(4000);
  });

  it('grows with the jobs ahead and shrinks with the workers', () => {
    expect(estimateWaitMs({ state: 'waiting', averageJobMs: 4000, slots: 1, jobsAhead: 3 })).toBe(16_000);
    expect(estimateWaitMs({ state: 'waiting', averageJobMs: 4000, slots: 2, jobsAhead: 3 })).toBe(8000);
    expect(estimateWaitMs({ state: 'waiting', averageJobMs: 4000, slots: 4, jobsAhead: 3 })).toBe(4000);
  });

  it('follows the recent durations', () => {
    expect(estimateWaitMs({ state: 'waiting', averageJobMs: 20_000, slots: 1, jobsAhead: 0 })).toBe(20_000);
  });

  it('adds the back-off of a delayed job', () => {
    expect(estimateWaitMs({ state: 'delayed', averageJobMs: 1000, slots: 1, jobsAhead: 0, delayMs: 3000 })).toBe(4000);
  });

  it('uses progress for a running job once it says something', () => {
    expect(
      estimateWaitMs({ state: 'active', averageJobMs: 10_000, slots: 1, jobsAhead: 0, elapsedMs: 2000, progress: 50 }),
    ).toBe(2000);
    expect(
      estimateWaitMs({ state: 'active', averageJobMs: 10_000, slots: 1, jobsAhead: 0, elapsedMs: 2000, progress: 0 }),
    ).toBe(8000);
  });

  it('never answers less than the floor', () => {
    expect(estimateWaitMs({ state: 'active', averageJobMs: 1000, slots: 1, jobsAhead: 0, elapsedMs: 60_000 })).toBe(
      MIN_WAIT_MS,
    );
  });
});
