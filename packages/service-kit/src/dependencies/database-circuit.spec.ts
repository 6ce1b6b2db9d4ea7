import type { Connection } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogSink } from '../logger.js';
import { DatabaseCircuit } from './database-circuit.js';
import type { PooledConnection } from './statement-watch.js';

type Callback = (error: Error | null, rows?: unknown) => void;

/** A pool connection whose statements answer after `answerAfterMs`, or never (undefined). */
function pooledConnection(answerAfterMs: number | undefined): PooledConnection {
  return {
    query: (_sql: unknown, callback: Callback) => {
      if (answerAfterMs !== undefined) setTimeout(() => callback(null, []), answerAfterMs);
    },
    release: () => undefined,
    destroy: () => undefined,
  };
}

/** The probe's own connection: answers its opening question (not Galera), then never again (a stalled writer). */
function stalledWriterConnection(): Connection {
  let questions = 0;
  return {
    query: () => (questions++ === 0 ? Promise.resolve([[]]) : new Promise(() => undefined)),
    on: () => undefined,
    destroy: () => undefined,
  } as unknown as Connection;
}

const silentLogger = (): LogSink =>
  ({ info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() }) as unknown as LogSink;

/** Sends one statement through the circuit's guarded connection; its outcome, once it has one. */
async function send(circuit: DatabaseCircuit, driver: { obtainMasterConnection(): Promise<PooledConnection> }) {
  const connection = await driver.obtainMasterConnection();
  const outcome: { error?: Error; done: boolean } = { done: false };
  connection.query('SELECT 1', (error: Error | null) => {
    outcome.done = true;
    if (error) outcome.error = error;
  });
  return { outcome, circuit };
}

describe('DatabaseCircuit', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('probes again for a statement that stalled while a probe begun before it ran, and opens on a stalled writer', async () => {
    // Statement A is slow but answered; B, sent after the probe A caused began, never is.
    const answers = [600, undefined];
    const driver = {
      obtainMasterConnection: () => Promise.resolve(pooledConnection(answers.shift())),
      obtainSlaveConnection: () => Promise.resolve(pooledConnection(0)),
    };
    const circuit = new DatabaseCircuit({
      name: 'test',
      logger: silentLogger(),
      connect: () => Promise.resolve(stalledWriterConnection()),
      probeTimeoutMs: 500,
      recoveryProbeTimeoutMs: 1000,
      stallMs: 200,
      writeDeadlineMs: 800,
    });
    circuit.attach({ driver } as unknown as DataSource);
    try {
      await send(circuit, driver);
      await vi.advanceTimersByTimeAsync(300);
      const { outcome: b } = await send(circuit, driver);
      // The first probe (200 → 700 ms) finds A answered and B sent after it began: slow, not down.
      await vi.advanceTimersByTimeAsync(450);
      expect(circuit.available).toBe(true);
      expect(b.done).toBe(false);
      // B has waited past the stall bound with no probe of its own: the next probe, asked at once, finds the writer stalled.
      await vi.advanceTimersByTimeAsync(500);
      expect(circuit.available).toBe(false);
      expect(b.error?.name).toBe('DependencyUnavailableError');
    } finally {
      circuit.stop();
    }
  });
});
