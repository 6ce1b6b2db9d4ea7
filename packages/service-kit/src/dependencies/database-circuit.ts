import type { DataSource } from 'typeorm';
import type { LogSink } from '../logger.js';
import { DependencyUnavailableError, unavailableDependencyOf } from './dependency-failure.js';
import { requestDeadlineIn, StatementWatch, type PooledConnection } from './statement-watch.js';
import { isWriterCheckTimeout, WriterCheck, type WriterCheckOptions } from './writer-check.js';

type State = 'up' | 'suspect' | 'down';

/**
 * The circuits of one process whose data sources reach the same writer (one per schema): when one
 * finds the writer stalled, the others' statements waiting on it are stalled too, and need not
 * wait for a probe of their own to be answered 503.
 */
export class SharedWriter {
  readonly circuits = new Set<DatabaseCircuit>();
}

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
  /** How long the probe that decides whether to open may take (a stalled writer does not answer it). */
  probeTimeoutMs: number;
  /** How long a probe may take while the circuit is open, and for `/ready` (DB_QUERY_TIMEOUT_MS). */
  recoveryProbeTimeoutMs: number;
  /** A statement in flight this long makes the circuit probe the writer. */
  stallMs: number;
  /** A write in flight this long is answered 503 1004 (before the request's deadline). */
  writeDeadlineMs: number;
  /** A read in flight, or a pool connection awaited, this long after its request began is answered 503 1004 (default: left to the timeouts). */
  readDeadlineMs?: number;
  /** Between probes while the database is down. */
  probeIntervalMs?: number;
  /** The other circuits in front of the same writer. */
  shared?: SharedWriter;
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
  /** Requests waiting for a pool connection: failed at once when the circuit opens. */
  private readonly waiting = new Set<() => void>();
  private readonly writer: WriterCheck;

  constructor(private readonly options: DatabaseCircuitOptions) {
    this.statements = new StatementWatch({
      stallMs: options.stallMs,
      writeDeadlineMs: options.writeDeadlineMs,
      ...(options.readDeadlineMs === undefined ? {} : { readDeadlineMs: options.readDeadlineMs }),
      onStall: () => this.suspect(),
    });
    this.writer = new WriterCheck({ connect: options.connect, timeoutMs: options.probeTimeoutMs });
    options.shared?.circuits.add(this);
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
    this.writer.prepare();
    const driver = dataSource.driver as unknown as MysqlDriverLike;
    for (const method of ['obtainMasterConnection', 'obtainSlaveConnection'] as const) {
      const original = driver[method].bind(driver);
      driver[method] = async () => {
        if (this.state === 'down') throw new DependencyUnavailableError('database');
        try {
          return this.statements.guard(await this.whileUp(original()));
        } catch (error) {
          this.failed(error);
          throw error;
        }
      };
    }
  }

  /**
   * A pool connection, unless the circuit opens first: a full pool opens new connections, and a
   * stalled server holds their handshake for the whole connect timeout. A wait past `stallMs` is
   * a stall like a statement's; a connection that comes after the circuit opened goes back.
   */
  private whileUp(obtaining: Promise<PooledConnection>): Promise<PooledConnection> {
    return new Promise((resolve, reject) => {
      const stall = setTimeout(() => this.suspect(), this.options.stallMs);
      stall.unref();
      // A handshake held by a node that stopped answering (a paused node still in the reader
      // pool) answers 503 1004 by the request's read deadline, not at the end of the connect timeout.
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const fail = (): void => {
        clearTimeout(stall);
        clearTimeout(deadline);
        reject(new DependencyUnavailableError('database'));
      };
      if (this.options.readDeadlineMs !== undefined) {
        deadline = setTimeout(
          () => {
            if (this.waiting.delete(fail)) fail();
          },
          requestDeadlineIn(this.options.readDeadlineMs, this.options.stallMs, Date.now()),
        );
        deadline.unref();
      }
      this.waiting.add(fail);
      obtaining.then(
        (connection) => {
          clearTimeout(stall);
          clearTimeout(deadline);
          if (this.waiting.delete(fail)) resolve(connection);
          else connection.release();
        },
        (error: unknown) => {
          clearTimeout(stall);
          clearTimeout(deadline);
          this.waiting.delete(fail);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Reports a failed query; connectivity failures make the circuit probe the database. */
  failed(error: unknown): void {
    if (unavailableDependencyOf(error) !== 'database' || error instanceof DependencyUnavailableError) return;
    this.suspect();
  }

  /** Whether the writer answers and accepts writes now (for `/ready`); also moves the circuit. */
  async check(): Promise<boolean> {
    await this.probe(true);
    return this.state === 'up' && this.writable;
  }

  stop(): void {
    this.options.shared?.circuits.delete(this);
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

  /**
   * Asks the writer. While up, within `probeTimeoutMs`; a probe that runs out of time opens the
   * circuit only when statements sent before it are still waiting (the writer stalled), not when
   * they were answered meanwhile (a busy machine: slow, not down). While down, or for `/ready`,
   * within `recoveryProbeTimeoutMs`.
   */
  private probe(forReadiness = false): Promise<void> {
    if (this.probing) return this.probing;
    const startedAt = Date.now();
    const deciding = this.state !== 'down' && !forReadiness;
    let askAgain = false;
    this.probing = this.writer
      .check(deciding ? this.options.probeTimeoutMs : this.options.recoveryProbeTimeoutMs)
      .then(
        (state) => this.markUp(state === 'writable'),
        (error: unknown) => {
          // Opened meanwhile (another circuit found the writer stalled): only an answer closes it.
          const slowNotStalled =
            deciding &&
            this.state !== 'down' &&
            isWriterCheckTimeout(error) &&
            !this.statements.waitingSince(startedAt) &&
            this.waiting.size === 0;
          if (!slowNotStalled) {
            this.markDown(error);
            if (deciding && isWriterCheckTimeout(error))
              for (const other of this.options.shared?.circuits ?? []) if (other !== this) other.writerStalled(error);
            return;
          }
          this.state = 'up';
          // A statement sent after this probe began, and stalled while it ran, joined it and had
          // no probe of its own: one more is due, or a stalled writer holds it until its timeout.
          askAgain = this.statements.waitingSince(Date.now() - this.options.stallMs);
        },
      )
      .finally(() => {
        this.probing = undefined;
        if (askAgain) this.suspect();
      });
    return this.probing;
  }

  /** Another circuit found the writer stalled: statements waiting on it past the stall bound fail now. */
  private writerStalled(error: unknown): void {
    if (this.state !== 'down' && this.statements.waitingSince(Date.now() - this.options.stallMs)) this.markDown(error);
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
    for (const fail of [...this.waiting]) {
      this.waiting.delete(fail);
      fail();
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), this.options.probeIntervalMs ?? 500);
    this.timer.unref();
  }
}
