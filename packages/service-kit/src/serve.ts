import http, { type RequestListener } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { HttpLimits } from './base-config.js';
import type { Logger } from './logger.js';
import { answerClientError, MAX_HEADER_SIZE, refuseConnect, refuseMalformedHead } from './protocol-refusals.js';

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
};

/** How often Node looks for requests past their timeouts (its default, 30 s, let slow clients stay ~37 s). */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

export interface ListeningServer {
  server: http.Server;
  port: number;
}

/**
 * A server being drained. Every connection it had when the drain began is told to close on its
 * next answer. A connection opened during the last call keeps alive until the listener closes:
 * told to close at once, its client would open another for its next request, and a connection
 * still waiting in the kernel's accept queue when the listener closes is reset, request and all.
 * Once the listener is closed every answer closes its connection, and a reconnecting client is
 * refused (safe to retry) instead.
 */
interface Drain {
  listenerClosed: boolean;
  openedDuringLastCall: WeakSet<net.Socket>;
}

const drains = new WeakMap<http.Server, Drain>();

function startDraining(server: http.Server): void {
  const drain: Drain = { listenerClosed: false, openedDuringLastCall: new WeakSet() };
  server.on('connection', (socket: net.Socket) => {
    if (!drain.listenerClosed) drain.openedDuringLastCall.add(socket);
  });
  drains.set(server, drain);
}

/** Stops accepting, but leaves the open connections alone; resolves when every one has ended. */
function stopAccepting(server: http.Server): Promise<void> {
  const drain = drains.get(server);
  if (drain) drain.listenerClosed = true;
  return new Promise<void>((resolve) => {
    // http.Server#close would also close the idle connections, under a request a client may have
    // just sent on one: each closes after the answer it carries next (Connection: close), or when
    // its keep-alive timeout ends, as it would have anyway.
    net.Server.prototype.close.call(server, () => resolve());
  });
}

/** Whether the answer now being written on `socket` must close its connection. */
function closesConnection(server: http.Server, socket: net.Socket): boolean {
  const drain = drains.get(server);
  return drain !== undefined && (drain.listenerClosed || !drain.openedDuringLastCall.has(socket));
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- called with the response as `this`
const nodeWriteHead = http.ServerResponse.prototype.writeHead;
type WriteHead = (
  this: http.ServerResponse,
  statusCode: number,
  reason?: unknown,
  headers?: unknown,
) => http.ServerResponse;

/**
 * `writeHead` of every response of our servers: a response decides on keep-alive when its head is
 * written (every way of answering, `end()` included, goes through `writeHead`), so one already in
 * flight when the drain begins still closes its connection, and no request pays for being tracked.
 * Express swaps a response's prototype for its app's, so createServiceApp puts it there too.
 */
export function drainAwareWriteHead(
  this: http.ServerResponse,
  statusCode: number,
  reason?: unknown,
  headers?: unknown,
): http.ServerResponse {
  const socket = this.req.socket as (net.Socket & { server?: http.Server }) | null;
  if (socket?.server !== undefined && closesConnection(socket.server, socket)) this.shouldKeepAlive = false;
  // node's writeHead takes these three (reason optional); no rest array is made per response.
  return (nodeWriteHead as WriteHead).call(this, statusCode, reason, headers);
}

/** The responses `listen` makes: answered before any framework sees them (the shortener's fast path). */
class DrainAwareResponse extends http.ServerResponse {
  override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
    return drainAwareWriteHead.call(this, statusCode, reason, headers) as this;
  }
}

/**
 * An HTTP server with limits against slow and greedy clients, listening on `host` and `port` (0
 * picks one; an IPv6 address such as `::` works). What node:http would refuse with an empty body
 * (a late, oversized or unparsable request) is answered with the JSON failure shape instead
 * (`protocol-refusals.ts`). Once draining (shutdown), responses carry `Connection: close` (see
 * `Drain`), so a client with a pooled keep-alive socket opens a new connection elsewhere instead
 * of having this one reset under it.
 */
export async function listen(
  handler: RequestListener,
  port: number,
  host = '127.0.0.1',
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
): Promise<ListeningServer> {
  const checked: RequestListener = (req, res) => {
    if (!refuseMalformedHead(req, res)) handler(req, res);
  };
  const server = http.createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      maxHeaderSize: MAX_HEADER_SIZE,
      // Checked by refuseMalformedHead, which answers in JSON.
      requireHostHeader: false,
      ServerResponse: DrainAwareResponse,
    },
    checked,
  );
  server.on('clientError', answerClientError);
  server.on('connect', refuseConnect);
  // An expectation other than 100-continue may be refused with 417 (RFC 9110 §10.1.1), which node
  // does with an empty body; the request is answered as if it had none.
  server.on('checkExpectation', checked);
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Closes something at shutdown; a `label` names it in the log when it hangs. */
export type Closer = (() => Promise<unknown>) & { label?: string };

/** A closer with a name for the shutdown log. */
export const labelled = (label: string, close: () => Promise<unknown>): Closer => Object.assign(close, { label });

export interface ShutdownOptions {
  servers: http.Server[];
  /** Run in order after the servers stopped; a function is asked at shutdown time. */
  closers: Closer[] | (() => Closer[]);
  logger: Logger;
  timeoutMs: number;
  /**
   * How long the servers keep accepting and answering after the signal before they stop
   * accepting. Connections open at the signal are told to close on their next answer (`Drain`):
   * a client reusing a pooled keep-alive socket in that time is answered and learns to let it go,
   * instead of having it closed under a request it just sent.
   */
  lastCallMs?: number;
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
}

/** Waits for `promise` at most `ms`; false when it took longer (it is left to finish or not). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * On SIGTERM/SIGINT (any number of them: one shutdown): keep accepting for `lastCallMs` while the connections open at the signal are
 * told to close, then stop accepting, let every open connection end (after its next answer, or at
 * its keep-alive timeout), then close queues, Redis and the database and exit 0. The servers get
 * `timeoutMs` to drain: past it the remaining connections are cut and the process exits 1. A closer that hangs (a stalled database) is abandoned after its share
 * of the time with a log line naming it; it does not hold the exit.
 */
export function installGracefulShutdown(options: ShutdownOptions): () => Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let shuttingDown: Promise<void> | undefined;

  const shutdown = (signal: string): Promise<void> => {
    if (shuttingDown) return shuttingDown;
    options.logger.info('shutting down', { signal });
    const deadline = setTimeout(() => {
      options.logger.error('shutdown took too long; closing connections', { timeoutMs: options.timeoutMs });
      for (const server of options.servers) server.closeAllConnections();
      exit(1);
    }, options.timeoutMs);
    deadline.unref();
    shuttingDown = (async () => {
      const started = Date.now();
      for (const server of options.servers) startDraining(server);
      if (options.servers.length > 0 && (options.lastCallMs ?? 0) > 0)
        await new Promise((resolve) => setTimeout(resolve, options.lastCallMs));
      await Promise.all(options.servers.map(stopAccepting));
      clearTimeout(deadline);
      const closers = typeof options.closers === 'function' ? options.closers() : options.closers;
      const closeBudgetMs = Math.max(1000, options.timeoutMs - (Date.now() - started));
      for (const [index, close] of closers.entries()) {
        const closing = Promise.resolve().then(close);
        closing.catch((error: unknown) => options.logger.warn('error while closing', { error }));
        if (!(await within(closing, closeBudgetMs / closers.length))) {
          options.logger.warn('a connection did not close in time; abandoned', {
            closing: close.label ?? `closer ${index}`,
            waitedMs: Math.round(closeBudgetMs / closers.length),
          });
        }
      }
      options.logger.info('shut down cleanly');
      exit(0);
    })();
    return shuttingDown;
  };

  // `on`, never `once`: a second signal (a process group's SIGTERM, then a supervisor's or
  // concurrently's own) joins the shutdown under way instead of taking the default action, which
  // would kill the process in the middle of its last flush. Only `timeoutMs` cuts a stop short.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (shuttingDown) options.logger.info('already shutting down', { signal });
    void shutdown(signal);
  };
  for (const signal of options.signals ?? STOP_SIGNALS) process.on(signal, onSignal);
  return () => shutdown('manual');
}

/** The signals that stop a Pawlink process (a service manager's SIGTERM, a terminal's Ctrl-C). */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * Until `installGracefulShutdown` takes over, a stop signal ends the process at once with `exitCode`
 * (nothing has been served, so nothing counted is lost), instead of the default action, which a
 * container's PID 1 does not get at all. Call the returned function once the shutdown is installed.
 */
export function exitOnStopSignalWhileStarting(logger: Logger, exitCode = 0): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    logger.info('stopped while starting', { signal });
    process.exit(exitCode);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
}

/** Stops the process with a readable message when configuration is bad. */
export function exitOnConfigError(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(78);
}
