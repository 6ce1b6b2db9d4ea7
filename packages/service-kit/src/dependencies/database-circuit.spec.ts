import { runWithRequestId } from '../request-id.js';
import type { Connection } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LogSink } from '../logger.js';
import { DatabaseCircuit, SharedWriter } from './database-circuit.js';
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

function circuitOn(driver: object, shared?: SharedWriter): DatabaseCircuit {
  const circuit = new DatabaseCircuit({
    name: 'test',
    logger: silentLogger(),
    connect: () => Promise.resolve(stalledWriterConnection()),
    probeTimeoutMs: 500,
    recoveryProbeTimeoutMs: 1000,
    stallMs: 200,
    writeDeadlineMs: 800,
    ...(shared ? { shared } : {}),
  });
  circuit.attach({ driver } as unknown as DataSource);
  return circuit;
}

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

  /** A circuit whose writer answers every probe, before a pool whose writer connections come only when `late` is called. */
  function heldAcquire() {
    const pending: Array<(connection: PooledConnection) => void> = [];
    const driver = {
      obtainMasterConnection: () => new Promise<PooledConnection>((resolve) => pending.push(resolve)),
      obtainSlaveConnection: () => Promise.resolve(pooledConnection(0)),
    };
    const circuit = new DatabaseCircuit({
      name: 'test',
      logger: silentLogger(),
      // The writer answers every probe: only the deadline can end the wait.
      connect: () =>
        Promise.resolve({
          query: () => Promise.resolve([[]]),
          on: () => undefined,
          destroy: () => undefined,
        } as unknown as Connection),
      probeTimeoutMs: 500,
      recoveryProbeTimeoutMs: 1000,
      stallMs: 200,
      writeDeadlineMs: 800,
      readDeadlineMs: 900,
    });
    circuit.attach({ driver } as unknown as DataSource);
    const acquire = (): { error?: Error } => {
      const outcome: { error?: Error } = {};
      driver.obtainMasterConnection().catch((error: Error) => (outcome.error = error));
      return outcome;
    };
    return { circuit, acquire, pending };
  }

  it('answers 503 by the read deadline when a pool connection does not come (a handshake held by a paused reader), and gives a late one back', async () => {
    const { circuit, acquire, pending } = heldAcquire();
    let released = 0;
    try {
      const outcome = acquire();
      await vi.advanceTimersByTimeAsync(899);
      expect(outcome.error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome.error?.name).toBe('DependencyUnavailableError');
      pending[0]!({ ...pooledConnection(0), release: () => void released++ });
      await vi.advanceTimersByTimeAsync(0);
      expect(released).toBe(1);
    } finally {
      circuit.stop();
    }
  });

  it('counts the time its request spent before it waits for a pool connection', async () => {
    const { circuit, acquire } = heldAcquire();
    try {
      const outcome = runWithRequestId('request', () => (vi.advanceTimersByTime(600), acquire()));
      await vi.advanceTimersByTimeAsync(299);
      expect(outcome.error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome.error?.name).toBe('DependencyUnavailableError');
    } finally {
      circuit.stop();
    }
  });

  it('probes again for a statement that stalled while a probe begun before it ran, and opens on a stalled writer', async () => {
    // Statement A is slow but answered; B, sent after the probe A caused began, never is.
    const answers = [600, undefined];
    const driver = {
      obtainMasterConnection: () => Promise.resolve(pooledConnection(answers.shift())),
      obtainSlaveConnection: () => Promise.resolve(pooledConnection(0)),
    };
    const circuit = circuitOn(driver);
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

  it('opens at once when another circuit of the process finds the same writer stalled, for statements waiting past the stall bound', async () => {
    const stalled = () => ({
      obtainMasterConnection: () => Promise.resolve(pooledConnection(undefined)),
      obtainSlaveConnection: () => Promise.resolve(pooledConnection(undefined)),
    });
    const [auth, links, other] = [stalled(), stalled(), stalled()];
    const shared = new SharedWriter();
    const [authCircuit, linksCircuit] = [circuitOn(auth, shared), circuitOn(links, shared)];
    const alone = circuitOn(other);
    try {
      await send(authCircuit, auth);
      await vi.advanceTimersByTimeAsync(150);
      const { outcome: waiting } = await send(linksCircuit, links);
      await send(alone, other);
      // The auth circuit's probe (200 → 700 ms) finds the writer stalled; the other schema's
      // statement, 550 ms old, fails with it instead of at its own probe's end (850 ms).
      await vi.advanceTimersByTimeAsync(560);
      expect(authCircuit.available).toBe(false);
      expect(linksCircuit.available).toBe(false);
      expect(waiting.error?.name).toBe('DependencyUnavailableError');
      expect(alone.available).toBe(true);
      // Its own probe, begun before, ends without an answer: the circuit stays open (only an answer closes it).
      await vi.advanceTimersByTimeAsync(200);
      expect(linksCircuit.available).toBe(false);
    } finally {
      for (const circuit of [authCircuit, linksCircuit, alone]) circuit.stop();
    }
  });
});
