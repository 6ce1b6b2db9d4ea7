import http, { type RequestListener } from 'node:http';

/*
 * Ceilings import this module alone (`@pawlink/bench/ceiling`), not the package, so they load
 * nothing a bare server would not: no typeorm, no Express, no async context.
 */

/** The variable a ceiling script reads its port from (set by `startCeiling`). */
export const CEILING_PORT_ENV = 'BENCH_PORT';

/** The variable holding a ceiling's settings as JSON (set by `startCeiling`). */
export const CEILING_CONFIG_ENV = 'BENCH_CEILING';

/**
 * Set by `startCeiling(…, { framework: 'express' })`: the ceiling serves its handler through a
 * bare Express app with Pawlink's settings (the "framework ceiling") instead of node:http alone.
 */
export const CEILING_FRAMEWORK_ENV = 'BENCH_CEILING_FRAMEWORK';

/** The settings `startCeiling` gave this ceiling. */
export function ceilingConfig<T>(): T {
  const raw = process.env[CEILING_CONFIG_ENV];
  if (!raw) throw new Error(`${CEILING_CONFIG_ENV} is not set: start ceilings with startCeiling()`);
  return JSON.parse(raw) as T;
}

export interface CeilingOptions {
  /**
   * The Express route (`/:category`) the handler answers when served as a framework ceiling, as
   * the service's own route is declared: Express's routing is part of what that ceiling measures.
   */
  expressRoute?: string;
  /** The method of that route, as the service declares it; GET unless said. */
  expressMethod?: 'get' | 'post';
}

/**
 * Serves a ceiling: a bare node:http server doing the least an endpoint needs (or, when started
 * as a framework ceiling, the same handler on one route of a bare Express app; Express is loaded
 * only then). Listens on 127.0.0.1:$BENCH_PORT; on SIGTERM closes the server, then `close` (its
 * Redis or MySQL), then exits.
 */
export function serveCeiling(
  handler: RequestListener,
  close: () => Promise<unknown> = () => Promise.resolve(),
  options: CeilingOptions = {},
): void {
  if (process.env[CEILING_FRAMEWORK_ENV] === 'express') {
    if (options.expressRoute === undefined)
      throw new Error('this ceiling has no expressRoute: it cannot be served as a framework ceiling');
    const route = options.expressRoute;
    void import('./framework-ceiling.js').then(({ expressHandler }) =>
      listenCeiling(expressHandler(route, handler, options.expressMethod), close),
    );
    return;
  }
  listenCeiling(handler, close);
}

function listenCeiling(handler: RequestListener, close: () => Promise<unknown>): void {
  const port = Number(process.env[CEILING_PORT_ENV]);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`${CEILING_PORT_ENV} must be a port number`);
  const server = http.createServer(handler);
  server.listen(port, '127.0.0.1');
  // `on`, not `once`: a second SIGTERM while closing joins the close instead of killing the process.
  let closing = false;
  process.on('SIGTERM', () => {
    if (closing) return;
    closing = true;
    server.closeAllConnections();
    server.close(() => {
      void close().finally(() => process.exit(0));
    });
  });
}

let requestCount = 0;
const requestIdPrefix = `${process.pid.toString(36)}-`;

/** The cheapest unique X-Request-Id a server could send: pid and a counter. */
export function nextRequestId(): string {
  return requestIdPrefix + (requestCount++).toString(36);
}

/** Writes a JSON answer with the headers every JSON endpoint of ours sends. */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': nextRequestId(),
    ...headers,
  });
  res.end(text);
}
