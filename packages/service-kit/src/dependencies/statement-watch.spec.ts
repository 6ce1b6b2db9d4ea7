import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runWithRequestId } from '../request-id.js';
import { DependencyUnavailableError } from './dependency-failure.js';
import { StatementWatch, type PooledConnection } from './statement-watch.js';

type Callback = (error: Error | null) => void;

/** A pool connection whose statements never answer (a commit held by a cluster evicting a node). */
const heldConnection = (): PooledConnection => ({
  query: () => undefined,
  release: () => undefined,
  destroy: () => undefined,
});

const watch = (readDeadlineMs?: number) =>
  new StatementWatch({
    stallMs: 200,
    writeDeadlineMs: 800,
    ...(readDeadlineMs === undefined ? {} : { readDeadlineMs }),
    onStall: () => undefined,
  });

/** Sends `sql` on a watched held connection; the error it was failed with, once it was. */
function send(sql: string, readDeadlineMs?: number): { error?: Error } {
  const outcome: { error?: Error } = {};
  watch(readDeadlineMs)
    .guard(heldConnection())
    .query(sql, ((error) => {
      if (error) outcome.error = error;
    }) satisfies Callback);
  return outcome;
}

/** Sends `sql` inside a request that began `requestAgeMs` before it. */
function sendInRequest(sql: string, requestAgeMs: number): { error?: Error } {
  return runWithRequestId('request', () => {
    vi.advanceTimersByTime(requestAgeMs);
    return send(sql);
  });
}

/** How long after it was sent the statement was failed (stepping 1 ms), or undefined within `limitMs`. */
function failedAfter(outcome: { error?: Error }, limitMs: number): number | undefined {
  for (let waited = 0; waited <= limitMs; waited++) {
    if (outcome.error) return waited;
    vi.advanceTimersByTime(1);
  }
  return undefined;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('StatementWatch: a held write answers by the deadline of its request', () => {
  it('fails a write outside a request writeDeadlineMs after it was sent', () => {
    const outcome = send('COMMIT');
    expect(failedAfter(outcome, 1000)).toBe(800);
    expect(outcome.error).toBeInstanceOf(DependencyUnavailableError);
  });

  it('counts the time its request spent before the write', () => {
    expect(failedAfter(sendInRequest('INSERT INTO t VALUES (1)', 300), 1000)).toBe(500);
  });

  it('never fails a write before it has waited stallMs, however old its request', () => {
    expect(failedAfter(sendInRequest('UPDATE t SET a = 1', 750), 1000)).toBe(200);
    expect(failedAfter(sendInRequest('DELETE FROM t', 5000), 1000)).toBe(200);
  });

  it('leaves a read to the query timeout without a read deadline', () => {
    expect(failedAfter(sendInRequest('SELECT 1', 600), 2000)).toBeUndefined();
  });

  it('fails a held read outside a request readDeadlineMs after it was sent', () => {
    const outcome = send('SELECT 1', 900);
    expect(failedAfter(outcome, 2000)).toBe(900);
    expect(outcome.error).toBeInstanceOf(DependencyUnavailableError);
  });

  it('counts the time its request spent before the read (on another held statement, say), never less than stallMs', () => {
    const inRequest = (requestAgeMs: number) =>
      runWithRequestId('request', () => (vi.advanceTimersByTime(requestAgeMs), send('SELECT 1', 900)));
    expect(failedAfter(inRequest(600), 2000)).toBe(300);
    expect(failedAfter(inRequest(800), 2000)).toBe(200);
    expect(failedAfter(inRequest(0), 2000)).toBe(900);
  });
});
