import { currentRequestStartedAt } from '../request-id.js';
import { DependencyUnavailableError } from './dependency-failure.js';

type QueryCallback = (error: (Error & { code?: string }) | null, ...rest: unknown[]) => void;

/** A mysql2 pool connection, as far as the watch uses it. */
export interface PooledConnection {
  query(sql: unknown, ...rest: unknown[]): unknown;
  release(): void;
  destroy(): void;
  [WATCHED]?: true;
}

const WATCHED = Symbol('statements watched');

/** Statements that change data, COMMIT included: the ones a stalled Galera commit holds. */
const WRITE = /^\s*(?:INSERT|UPDATE|DELETE|REPLACE|COMMIT)\b/i;

const sqlOf = (sql: unknown): string =>
  typeof sql === 'string'
    ? sql
    : typeof (sql as { sql?: unknown })?.sql === 'string'
      ? (sql as { sql: string }).sql
      : '';

/**
 * How long a wait that began at `startedAt` may last: `boundMs` counted from the start of the
 * request it serves (the time the request spent before counts too), never less than `floorMs` (a
 * fast step of a long request is not a stall) nor more than `boundMs`; outside a request, `boundMs`.
 */
export function requestDeadlineIn(boundMs: number, floorMs: number, startedAt: number): number {
  const requestStartedAt = currentRequestStartedAt();
  if (requestStartedAt === undefined) return boundMs;
  return Math.min(boundMs, Math.max(floorMs, requestStartedAt + boundMs - startedAt));
}

export interface StatementWatchOptions {
  /** A statement still waiting after this is reported (`onStall`). */
  stallMs: number;
  /**
   * A write still waiting this long after its request began is failed with
   * DependencyUnavailableError, so the request answers 503 1004 in time: the time the request
   * spent before the statement counts too. A write is never failed before it has waited `stallMs`
   * (a fast statement of a long request is not a stall), nor later than this after it was sent.
   */
  writeDeadlineMs: number;
  /**
   * A read still waiting this long after its request began is failed the same way, with the same
   * floor and cap (default: none, the query timeout ends it): a read held by a node that stopped
   * answering (a paused node still in the reader pool) answers 503 1004 before the request's
   * second is out, also when the request had waited on another held statement before it.
   */
  readDeadlineMs?: number;
  onStall: () => void;
}

interface InFlight {
  startedAt: number;
  fail(error: Error): void;
}

/**
 * Watches every statement sent on the connections it guards. mysql2 runs one command at a time
 * per connection and keeps a timed-out one in line, so a connection whose statement timed out or
 * was failed here is destroyed (the pool opens a fresh one when asked). A statement in flight past
 * `stallMs` is reported, so the circuit can ask the writer whether it still commits; a write in
 * flight past `writeDeadlineMs` (a commit held by a cluster that is evicting a node) is failed
 * before the request's deadline; and `failAll` fails every statement in flight when the circuit
 * opens. A failed write's outcome is unknown, as a timed-out one's always was: it answers 503.
 */
export class StatementWatch {
  private readonly inFlight = new Set<InFlight>();

  constructor(private readonly options: StatementWatchOptions) {}

  get statementsInFlight(): number {
    return this.inFlight.size;
  }

  guard<C extends PooledConnection>(connection: C): C {
    if (connection[WATCHED]) return connection;
    connection[WATCHED] = true;
    const query = connection.query.bind(connection);
    connection.query = (sql: unknown, ...rest: unknown[]) => {
      const last = rest.length - 1;
      const callback = rest[last];
      if (typeof callback !== 'function') return query(sql, ...rest);
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(stall);
        clearTimeout(deadline);
        this.inFlight.delete(statement);
        return true;
      };
      const statement: InFlight = {
        startedAt: Date.now(),
        fail: (error) => {
          if (!settle()) return;
          connection.destroy();
          (callback as QueryCallback)(error);
        },
      };
      const stall = setTimeout(() => this.options.onStall(), this.options.stallMs);
      stall.unref();
      const boundMs = WRITE.test(sqlOf(sql)) ? this.options.writeDeadlineMs : this.options.readDeadlineMs;
      const deadlineMs =
        boundMs === undefined ? undefined : requestDeadlineIn(boundMs, this.options.stallMs, statement.startedAt);
      const deadline =
        deadlineMs === undefined
          ? undefined
          : setTimeout(() => {
              this.options.onStall();
              statement.fail(new DependencyUnavailableError('database'));
            }, deadlineMs);
      deadline?.unref();
      this.inFlight.add(statement);
      rest[last] = ((error, ...results) => {
        if (!settle()) return;
        if (error?.code === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
        (callback as QueryCallback)(error, ...results);
      }) satisfies QueryCallback;
      return query(sql, ...rest);
    };
    return connection;
  }

  /** Whether a statement sent before `at` is still waiting for its answer. */
  waitingSince(at: number): boolean {
    for (const statement of this.inFlight) if (statement.startedAt <= at) return true;
    return false;
  }

  /** Fails every statement in flight (their connections are destroyed): the database stopped answering. */
  failAll(): void {
    for (const statement of [...this.inFlight]) statement.fail(new DependencyUnavailableError('database'));
  }
}
