/** The dependencies a request can wait on, as `/ready` and the logs name them. */
export type DependencyName = 'redis' | 'database';

/**
 * A dependency is down or did not answer in time: the request is answered 503 code 1004 at once
 * rather than held. Thrown by the database circuit while it is open.
 */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: DependencyName,
    options?: { cause?: unknown },
  ) {
    super(`${dependency} is unavailable`, options);
    this.name = 'DependencyUnavailableError';
  }
}

/** mysql2's codes for a server that is gone, refusing, overloaded or not answering in time. */
const DATABASE_CONNECTIVITY_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
]);

/**
 * What a Galera cluster answers while it moves or loses a node, none a fault of the request: a
 * transaction that failed certification against another node's (1213, at commit), a node not
 * ready for clients (1047 "WSREP has not yet prepared node for application use"), and a writer
 * that turned read-only (1290 with `--read-only`, 1792) until HAProxy sends writes elsewhere.
 */
const GALERA_TRANSIENT_CODES = new Set([
  'ER_LOCK_DEADLOCK',
  'ER_UNKNOWN_COM_ERROR',
  'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION',
]);
/** 1290 names the option that refused the statement; only `--read-only` is a writer on its way out. */
const READ_ONLY_REFUSAL = /read[-_]only/i;

/** mysql2 messages without a code for the same situations. */
const DATABASE_CONNECTIVITY_MESSAGES =
  /Pool is closed|connection is in closed state|Connection lost|Query inactivity timeout/i;

/**
 * ioredis' failures of a connection that is down or stalled (not of a command it refused), and a
 * Redis Cluster's: a master down (CLUSTERDOWN, redirections exhausted), no node reachable. ioredis
 * follows MOVED and ASK itself; one that reaches the caller points at a master it could not reach
 * (the other masters name a dead master as the slot's owner until they mark it failed).
 */
const REDIS_CONNECTIVITY_MESSAGES =
  /Command timed out|Connection is closed|Stream isn't writeable|Reached the max retries per request limit|connect ETIMEDOUT|ECONNREFUSED|CLUSTERDOWN|TRYAGAIN|Too many Cluster redirections|Cluster isn't ready|None of startup nodes is available|Failed to refresh slots cache|^(?:MOVED|ASK) \d+ /i;

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  errno?: unknown;
  fatal?: unknown;
  sqlMessage?: unknown;
  driverError?: unknown;
}

/**
 * Which dependency `error` says is unavailable, or undefined when it is another kind of failure
 * (a bug, a constraint, a refused command). typeorm wraps driver errors in `driverError`.
 */
export function unavailableDependencyOf(error: unknown): DependencyName | undefined {
  if (error instanceof DependencyUnavailableError) return error.dependency;
  if (typeof error !== 'object' || error === null) return undefined;
  const shape = error as ErrorShape;
  if (shape.driverError !== undefined)
    return unavailableDependencyOf(shape.driverError) === 'database' ? 'database' : undefined;
  const message = typeof shape.message === 'string' ? shape.message : '';
  const code = typeof shape.code === 'string' ? shape.code : '';
  const fromMysql = shape.fatal !== undefined || shape.sqlMessage !== undefined;
  if (shape.name === 'MaxRetriesPerRequestError' || (!fromMysql && REDIS_CONNECTIVITY_MESSAGES.test(message)))
    return 'redis';
  if (DATABASE_CONNECTIVITY_CODES.has(code) || DATABASE_CONNECTIVITY_MESSAGES.test(message)) return 'database';
  if (GALERA_TRANSIENT_CODES.has(code)) return 'database';
  if (code === 'ER_OPTION_PREVENTS_STATEMENT' && READ_ONLY_REFUSAL.test(message)) return 'database';
  return undefined;
}

/**
 * An 'error' listener for clients that report connection trouble as events (BullMQ queues and
 * queue events): an unavailable dependency is left to its connection's monitor, which logs the
 * outage once; anything else is logged as it comes.
 */
export function logUnlessUnavailable(
  logger: { warn(message: string, meta?: Record<string, unknown>): unknown },
  message: string,
): (error: unknown) => void {
  return (error) => {
    if (unavailableDependencyOf(error) !== undefined) return;
    logger.warn(message, { error });
  };
}
