/**
 * How long after a failed attempt the next one waits: attempt n+1 is due `schedule[n-1]` after
 * the first attempt (the contract's 10 s, 1 min, 3 min, 10 min), whatever the failed attempts
 * took; at once when that moment has passed.
 */
export function callbackRetryDelayMs(
  attemptsMade: number,
  firstAttemptAt: number,
  schedule: readonly number[],
  now: number,
): number {
  const due = schedule[Math.min(Math.max(attemptsMade, 1), schedule.length) - 1] ?? 0;
  return Math.max(0, firstAttemptAt + due - now);
}

/** Attempts in all: the first and one per scheduled retry. */
export const callbackAttempts = (schedule: readonly number[]): number => schedule.length + 1;
