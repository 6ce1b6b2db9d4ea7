import type { DataSource } from 'typeorm';
import type { LogSink } from '../logger.js';
import { DependencyUnavailableError, unavailableDependencyOf } from './dependency-failure.js';
import { StatementWatch, type PooledConnection } from './statement-watch.js';
import { WriterCheck, type WriterCheckOptions } from './writer-check.js';

type State = 'up' | 'suspect' | 'down';

/** The methods of typeorm's MySQL driver every query runner gets its connection through. */
interface MysqlDriverLike {
  obtainMasterConnection(): Promise<PooledConnection>;
  obtainSlaveConnection(): Promise<PooledConnection>;
}

export interface DatabaseCircuitOptions {
  /** Schema name, for the log lines. */
  name: string;
  logger: LogSink;
  /** Opens the probe's own connection to the writer (WriterCheck). */
  connect: WriterCheckOptions['connect'];
  /** How long the probe may take, connecting included. */
  probeTimeoutMs: number;
  /** A statement in flight this long makes the circuit probe the writer. */
  stallMs: number;
  /** A write in flight this long is answered 503 1004 (before the request's deadline). */
  writeDeadlineMs: number;
  /** Between probes while the database is down. */
  probeIntervalMs?: number;
}

/**
 * Fails requests at once while the database is known to be down, and finds out by itself when it
 * is back. A connectivity failure (refused, lost, timed out) or a statement in flight past
 * `stallMs` makes the circuit suspect the writer and probe it (WriterCheck: it must answer within
 * `probeTimeoutMs`, through the cluster on Galera): a probe that fails opens the circuit — the
 * statements in flight fail, and every query then fails with DependencyUnavailableError without
 * waiting — and the probe repeats in the background until one succeeds, which closes it. One slow
 * query on a healthy server therefore costs nothing more than itself. Down and up are each logged
 * once. `check` (for `/ready`) also wants the writer to accept writes (not read-only, Galera ready).
 */
export class DatabaseCircuit {
  private state: State = 'up';
  private writable = true;
  private probing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly statements: StatementWatch;
  private readonly writer: WriterCheck;

  constructor(private readonly options: DatabaseCircuitOptions) {
    this.statements = new StatementWatch({
      stallMs: options.stallMs,
      writeDeadlineMs: options.writeDeadlineMs,
      onStall: () => this.suspect(),
    });
    this.writer = new WriterCheck({ connect: options.connect, timeoutMs: options.probeTimeoutMs });
  }

  /** True unless the circuit is open. */
  get available(): boolean {
    return this.state !== 'down';
  }

  /**
   * Puts the circuit in front of the data source's connection pools. typeorm has no hook there, so
   * the driver's `obtainMasterConnection` and `obtainSlaveConnection` (every query runner's way to
   * a connection) are wrapped.
   */
  attach(dataSource: DataSource): void {
    const driver = dataSource.driver as unknown as MysqlDriverLike;
    for (const method of ['obtainMasterConnection', 'obtainSlaveConnection'] as const) {
      const original = driver[method].bind(driver);
      driver[method] = async () => {
        if (this.state === 'down') throw new DependencyUnavailableError('database');
        try {
          return this.statements.guard(await original());
        } catch (error) {
          this.failed(error);
          throw error;
        }
      };
    }
  }

  /** Reports a failed query; connectivity failures make the circuit probe the database. */
  failed(error: unknown): void {
    if (unavailableDependencyOf(error) !== 'database' || error instanceof DependencyUnavailableError) return;
    this.suspect();
  }

  /** Whether the writer answers and accepts writes now (for `/ready`); also moves the circuit. */
  async check(): Promise<boolean> {
    await this.probe();
    return this.state === 'up' && this.writable;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.writer.close();
  }

  private suspect(): void {
    if (this.stopped) return;
    if (this.state === 'up') this.state = 'suspect';
    void this.probe();
  }

  private probe(): Promise<void> {
    this.probing ??= this.writer
      .check()
      .then(
        (state) => this.markUp(state === 'writable'),
        (error: unknown) => this.markDown(error),
      )
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  private markUp(writable: boolean): void {
    if (this.state === 'down')
      this.options.logger.info('database connection restored', { database: this.options.name });
    if (this.writable && !writable)
      this.options.logger.warn('database writer refuses writes (read-only or not ready); /ready says down', {
        database: this.options.name,
      });
    this.state = 'up';
    this.writable = writable;
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
    this.statements.failAll();
    this.timer = setTimeout(() => void this.probe(), this.options.probeIntervalMs ?? 500);
    this.timer.unref();
  }
}
