import type { DataSource } from 'typeorm';
import type { LogSink } from '../logger.js';
import { DependencyUnavailableError, unavailableDependencyOf } from './dependency-failure.js';

type State = 'up' | 'suspect' | 'down';

type QueryCallback = (error: (Error & { code?: string }) | null, ...rest: unknown[]) => void;

/** A mysql2 pool connection, as far as the circuit uses it. */
interface PooledConnection {
  query(sql: unknown, ...rest: unknown[]): unknown;
  release(): void;
  destroy(): void;
  [TIMEOUTS_GUARDED]?: true;
}

/** The one method of typeorm's MySQL driver every query runner gets its connection through. */
interface MysqlDriverLike {
  obtainMasterConnection(): Promise<PooledConnection>;
}

const TIMEOUTS_GUARDED = Symbol('timeouts guarded');

/**
 * mysql2 runs one command at a time per connection and keeps a timed-out query in line, so
 * everything sent after it on that connection would wait for an answer that may never come (a
 * stalled server). A connection whose query timed out is therefore destroyed; the pool opens a
 * fresh one when asked.
 */
function destroyOnTimeout(connection: PooledConnection): PooledConnection {
  if (connection[TIMEOUTS_GUARDED]) return connection;
  connection[TIMEOUTS_GUARDED] = true;
  const query = connection.query.bind(connection);
  connection.query = (sql: unknown, ...rest: unknown[]) => {
    const last = rest.length - 1;
    const callback = rest[last];
    if (typeof callback === 'function') {
      rest[last] = ((error, ...results) => {
        if (error?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
        (callback as QueryCallback)(error, ...results);
      }) satisfies QueryCallback;
    }
    return query(sql, ...rest);
  };
  return connection;
}

export interface DatabaseCircuitOptions {
  /** Schema name, for the log lines. */
  name: string;
  logger: LogSink;
  /** How long the probe's `SELECT 1` may take. */
  probeTimeoutMs: number;
  /** Between probes while the database is down. */
  probeIntervalMs?: number;
}

/**
 * Fails requests at once while the database is known to be down, and finds out by itself when it
 * is back. A connectivity failure (refused, lost, timed out) makes the circuit suspect the database
 * and probe it at once with `SELECT 1`: a probe that fails opens the circuit — every query then fails
 * with DependencyUnavailableError without waiting — and the probe repeats in the background until
 * one succeeds, which closes it. One slow query on a healthy server therefore costs nothing more
 * than itself. Down and up are each logged once.
 */
export class DatabaseCircuit {
  private state: State = 'up';
  private probing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private obtain: (() => Promise<PooledConnection>) | undefined;
  private stopped = false;

  constructor(private readonly options: DatabaseCircuitOptions) {}

  /** True unless the circuit is open. */
  get available(): boolean {
    return this.state !== 'down';
  }

  /**
   * Puts the circuit in front of the data source's connection pool. typeorm has no hook there, so
   * the driver's `obtainMasterConnection` (every query runner's way to a connection) is wrapped.
   */
  attach(dataSource: DataSource): void {
    const driver = dataSource.driver as unknown as MysqlDriverLike;
    const original = driver.obtainMasterConnection.bind(driver);
    this.obtain = original;
    driver.obtainMasterConnection = async () => {
      if (this.state === 'down') throw new DependencyUnavailableError('database');
      try {
        return destroyOnTimeout(await original());
      } catch (error) {
        this.failed(error);
        throw error;
      }
    };
  }

  /** Reports a failed query; connectivity failures make the circuit probe the database. */
  failed(error: unknown): void {
    if (this.stopped || unavailableDependencyOf(error) !== 'database' || error instanceof DependencyUnavailableError)
      return;
    if (this.state === 'up') this.state = 'suspect';
    void this.probe();
  }

  /** Whether the database answers `SELECT 1` now (for `/ready`); also moves the circuit. */
  async check(): Promise<boolean> {
    await this.probe();
    return this.state === 'up';
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private probe(): Promise<void> {
    this.probing ??= this.selectOne()
      .then(
        () => this.markUp(),
        (error: unknown) => this.markDown(error),
      )
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  private async selectOne(): Promise<void> {
    if (!this.obtain) throw new Error('database circuit not attached');
    const connection = destroyOnTimeout(await this.obtain());
    try {
      await new Promise<void>((resolve, reject) => {
        connection.query({ sql: 'SELECT 1', timeout: this.options.probeTimeoutMs }, ((error) =>
          error ? reject(error) : resolve()) satisfies QueryCallback);
      });
    } finally {
      connection.release();
    }
  }

  private markUp(): void {
    if (this.state === 'down')
      this.options.logger.info('database connection restored', { database: this.options.name });
    this.state = 'up';
  }

  private markDown(error: unknown): void {
    if (this.stopped) return;
    if (this.state !== 'down') {
      this.options.logger.warn('database unavailable; answering 503 until it is back', {
        database: this.options.name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    this.state = 'down';
    this.timer = setTimeout(() => void this.probe(), this.options.probeIntervalMs ?? 500);
    this.timer.unref();
  }
}
