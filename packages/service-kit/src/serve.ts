import http, { type RequestListener } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { HttpLimits } from './base-config.js';
import type { Logger } from './logger.js';

export const DEFAULT_HTTP_LIMITS: HttpLimits = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000, maxConnections: 10_000 };

/** How often Node looks for requests past their timeouts (its default, 30 s, let slow clients stay ~37 s). */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

export interface ListeningServer {
  server: http.Server;
  port: number;
}

/** Servers being drained: every response they still send tells the client to close the connection. */
const draining = new WeakSet<http.Server>();
/** Responses each server has not finished yet, so a drain can mark the ones already in flight. */
const inFlight = new WeakMap<http.Server, Set<http.ServerResponse>>();

/** From now on, `server`'s responses (in flight and new) close their connection after them. */
function startDraining(server: http.Server): void {
  draining.add(server);
  for (const res of inFlight.get(server) ?? []) {
    if (!res.headersSent) res.shouldKeepAlive = false;
  }
}

/**
 * An HTTP server with limits against slow and greedy clients, listening on `port` (0 picks one).
 * Once draining (shutdown), each response carries `Connection: close`, so a client with a pooled
 * keep-alive socket opens a new connection elsewhere instead of having this one reset under it.
 */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0', limits: HttpLimits = DEFAULT_HTTP_LIMITS): Promise<ListeningServer> {
  const server = http.createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
      maxHeaderSize: 16 * 1024,
    },
    (req, res) => {
      if (draining.has(server)) res.shouldKeepAlive = false;
      const pending = inFlight.get(server);
      pending?.add(res);
      res.on('close', () => pending?.delete(res));
      handler(req, res);
    },
  );
  inFlight.set(server, new Set());
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
   * How long the servers keep accepting and answering after the signal, every answer with
   * `Connection: close`, before they stop accepting and close idle connections: a client
   * reusing a pooled keep-alive socket in that time is answered and learns to let it go,
   * instead of having it closed under a request it just sent.
   */
  lastCallMs?: number;
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
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
 * On SIGTERM/SIGINT: answer every request with `Connection: close` for `lastCallMs`, then stop
 * accepting, let every open connection end (after its next answer, or at its keep-alive timeout),
 * then close queues, Redis and the database and exit 0. The servers get `timeoutMs` to drain: past it the remaining connections are cut
 * and the process exits 1. A closer that hangs (a stalled database) is abandoned after its share
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
      if (options.servers.length > 0 && (options.lastCallMs ?? 0) > 0) await new Promise((resolve) => setTimeout(resolve, options.lastCallMs));
      await Promise.all(
        options.servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              // Stop accepting, but leave the open connections alone (http.Server#close would
              // close the idle ones, under a request a client may have just sent on one): each
              // closes after the answer it carries next (Connection: close), or when its
              // keep-alive timeout ends, as it would have anyway.
              net.Server.prototype.close.call(server, () => resolve());
            }),
        ),
      );
      clearTimeout(deadline);
      const closers = typeof options.closers === 'function' ? options.closers() : options.closers;
      const closeBudgetMs = Math.max(1000, options.timeoutMs - (Date.now() - started));
      for (const [index, close] of closers.entries()) {
        const closing = Promise.resolve().then(close);
        closing.catch((error: unknown) => options.logger.warn('error while closing', { error }));
        if (!(await within(closing, closeBudgetMs / closers.length))) {
          options.logger.warn('a connection did not close in time; abandoned', { closing: close.label ?? `closer ${index}`, waitedMs: Math.round(closeBudgetMs / closers.length) });
        }
      }
      options.logger.info('shut down cleanly');
      exit(0);
    })();
    return shuttingDown;
  };

  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => void shutdown(signal));
  }
  return () => shutdown('manual');
}

/** Stops the process with a readable message when configuration is bad. */
export function exitOnConfigError(error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${message}\n`);
  process.exit(78);
}
