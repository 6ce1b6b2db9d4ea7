import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Errors } from '@pawlink/contracts';
import { answerClientError, type LogSink, type ReadinessReport } from '@pawlink/service-kit';

export interface HealthServerOptions {
  host: string;
  /** 0: any free port (the log line and `port` say which). */
  port: number;
  /** Each dependency's state right now (`redis`, `media`); ready when all are up. */
  readiness: () => Promise<ReadinessReport>;
  /** Process start (unix ms), for `/online`'s uptime. */
  startedAt: number;
  logger: LogSink;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/** How long a client (an orchestrator's probe) should wait before asking /ready again. */
const RETRY_AFTER_SECONDS = '5';

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

const failure = (name: 'UNKNOWN_ROUTE' | 'METHOD_NOT_ALLOWED'): Record<string, unknown> => ({
  success: false,
  error: Errors[name].message,
  code: Errors[name].code,
});

/**
 * The worker's health endpoints, on node:http (the worker has no Express): `GET /online` is
 * liveness (`{success, uptime}`), `GET /ready` is 200 while every dependency is up, else 503
 * code 1004 with the state of each.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const { readiness, startedAt } = options;
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker.invalid').pathname;
    if (path !== '/online' && path !== '/ready') {
      send(res, Errors.UNKNOWN_ROUTE.status, failure('UNKNOWN_ROUTE'));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, Errors.METHOD_NOT_ALLOWED.status, failure('METHOD_NOT_ALLOWED'), { allow: 'GET, HEAD' });
      return;
    }
    if (path === '/online') {
      send(res, 200, { success: true, uptime: Math.floor((Date.now() - startedAt) / 1000) });
      return;
    }
    void readiness().then((checks) => {
      if (Object.values(checks).every((state) => state === 'up'))
        send(res, 200, { success: true, ready: true, checks });
      else
        send(
          res,
          Errors.DEPENDENCY_UNAVAILABLE.status,
          {
            success: false,
            code: Errors.DEPENDENCY_UNAVAILABLE.code,
            error: Errors.DEPENDENCY_UNAVAILABLE.message,
            checks,
          },
          { 'retry-after': RETRY_AFTER_SECONDS },
        );
    });
  });
  // Probes are tiny; a client that holds a socket open must not hold the process at shutdown.
  server.headersTimeout = 5_000;
  server.requestTimeout = 5_000;
  // A late or unparsable request is answered in JSON like the services', not with an empty body.
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  options.logger.info('thumbs worker health server listening', { host: options.host, port });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
