import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger.js';

export interface ServerTimeouts {
  /** Whole request, headers and body, from a client. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 };

export interface ListeningServer {
  server: http.Server;
  port: number;
}

/** An HTTP server with timeouts against slow clients, listening on `port` (0 picks one). */
export async function listen(handler: RequestListener, port: number, host = '0.0.0.0', timeouts = DEFAULT_TIMEOUTS): Promise<ListeningServer> {
  const server = http.createServer({ requestTimeout: timeouts.requestTimeoutMs, headersTimeout: timeouts.headersTimeoutMs, keepAliveTimeout: timeouts.keepAliveTimeoutMs, maxHeaderSize: 16 * 1024 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

export type Closer = () => Promise<unknown>;

export interface ShutdownOptions {
  servers: http.Server[];
  /** Run in order after the servers stopped; a function is asked at shutdown time. */
  closers: Closer[] | (() => Closer[]);
  logger: Logger;
  timeoutMs: number;
  exit?: (code: number) => void;
  signals?: NodeJS.Signals[];
}

/**
 * On SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close queues, Redis and the
 * database, exit 0. If that takes longer than `timeoutMs`, cut the connections and exit 1.
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
      await Promise.all(options.servers.map((server) => new Promise<void>((resolve) => {
        // Keep-alive sockets become idle only after their in-flight response; reap them as they do.
        const reaper = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(reaper);
          resolve();
        });
        server.closeIdleConnections();
      })));
      const closers = typeof options.closers === 'function' ? options.closers() : options.closers;
      for (const close of closers) {
        try {
          await close();
        } catch (error) {
          options.logger.warn('error while closing', { error });
        }
      }
      clearTimeout(deadline);
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
