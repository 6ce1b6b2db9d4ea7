import type { ServiceName } from '@pawlink/contracts';
import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { ApiError } from './api-error.js';
import { undecodableBody } from './body-encoding.js';
import { bodyParserError, errorRenderer, unknownRouteHandler } from './error-renderer.js';
import type { BaseConfig } from './base-config.js';
import type { Readiness } from './dependencies/readiness.js';
import { registerDocsRoutes, type ServiceDocs } from './docs/docs.routes.js';
import { onlyMethods } from './only-methods.js';
import type { Logger } from './logger.js';
import { HttpMetrics } from './metrics.js';
import type { ReadOnlySwitch } from './read-only.js';
import { assignRequestId, runWithRequestId } from './request-id.js';
import { sendJson } from './send-json.js';
import { drainAwareWriteHead } from './serve.js';
import { applyExpressSettings } from './http/express-settings.js';
import { strictQuery, type QueryListRule } from './http/query-shape.js';
import { routeLabel } from './http/route-label.js';

export interface ServiceAppOptions {
  service: ServiceName;
  /** BODY_LIMIT_BYTES and TRUST_PROXY. */
  config: Pick<BaseConfig, 'bodyLimitBytes' | 'trustProxy'>;
  logger: Logger;
  readOnly: ReadOnlySwitch;
  metrics?: HttpMetrics;
  /** Process start, for `/online`'s uptime. */
  startedAt?: number;
  /** What `/ready` asks (the runtime's); without it the service has no dependency to report. */
  readiness?: Readiness;
  /** The service's OpenAPI document and what its documentation page at `GET /` shows. */
  docs?: ServiceDocs;
  /**
   * Routes whose bodies may be larger than BODY_LIMIT_BYTES, by `"<METHOD> <path>"` (an exact
   * path): each gets the larger of the two.
   */
  bodyLimits?: Readonly<Record<string, number>>;
  /** Query parameters routes take as lists (repeated); every other one is refused when repeated or bracketed. */
  queryLists?: readonly QueryListRule[];
}

export interface ServiceApp {
  app: Express;
  metrics: HttpMetrics;
  /** Installs 404/405 and the error renderer; call once, after the service's routes. */
  finalize: () => Express;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/*
 * A body that cannot be read (undecodable 1014, malformed 1026, too large 1027) is not answered at
 * once: the route's own guards come first (API key → rate limit → read-only), and
 * `requireParsedBody` then raises it.
 * A client without a key learns it needs one, whatever it sent; an unknown route stays 1024.
 */
function deferBodyError(req: Request, res: Response, error: ApiError): void {
  req.body = undefined;
  (res.locals as { bodyError?: ApiError }).bodyError ??= error;
}

const deferBodyParserErrors: ErrorRequestHandler = (error: unknown, req, res, next) => {
  const bodyError = bodyParserError(error);
  if (!bodyError) {
    next(error);
    return;
  }
  deferBodyError(req, res, bodyError);
  next();
};

/** A body we cannot parse as JSON or a form is malformed (1026), not silently ignored. */
const deferUnparsableBody: RequestHandler = (req, res, next) => {
  if (
    BODY_METHODS.has(req.method) &&
    hasBody(req) &&
    !req.is(['application/json', 'application/*+json', 'application/x-www-form-urlencoded'])
  ) {
    deferBodyError(
      req,
      res,
      new ApiError('MALFORMED_BODY', {
        message: 'Malformed request body: send JSON (Content-Type: application/json).',
      }),
    );
  }
  next();
};

/**
 * Route guard for endpoints that read a body, placed after auth, rate limit and read-only:
 * 415 code 1014 when it could not be decoded, 400 code 1026 when it was malformed, 413 code 1027
 * when it was too large.
 */
export const requireParsedBody: RequestHandler = (_req, res, next) => {
  next(deferredBodyError(res));
};

/** The failure `requireParsedBody` would raise (its `cause` is the body parser's error), for routes that refine it. */
export function deferredBodyError(res: Response): ApiError | undefined {
  return (res.locals as { bodyError?: ApiError }).bodyError;
}

/** The JSON and form parsers, bounded by `limitBytes`, whose failures the route's guards answer after them. */
function bodyParsersOf(limitBytes: number): express.Router {
  const parsers = express.Router();
  parsers.use(express.json({ limit: limitBytes, type: ['application/json', 'application/*+json'] }));
  parsers.use(express.urlencoded({ limit: limitBytes, extended: false, parameterLimit: 100 }));
  parsers.use(deferBodyParserErrors);
  parsers.use(deferUnparsableBody);
  return parsers;
}

/**
 * The Express base every service builds on: request ids, metrics, body limits, `/online`,
 * `/ready`, and, after `finalize()`, 404/405 and the one error renderer. `/metrics` is not among
 * them: it is served apart (`metricsRequestListener`), off the public surface.
 */
export function createServiceApp(options: ServiceAppOptions): ServiceApp {
  const app = express();
  const metrics = options.metrics ?? new HttpMetrics(options.service);
  const startedAt = options.startedAt ?? Date.now();
  if (options.readiness) metrics.trackReadiness(options.readiness);
  app.set('trust proxy', options.config.trustProxy);
  // Express gives each response its app's prototype, which skips the one `listen` gave it.
  app.response.writeHead = drainAwareWriteHead as typeof app.response.writeHead;
  app.response.json = sendJson;

  app.use((req: Request, res: Response, next: NextFunction) => {
    const start = performance.now();
    const requestId = assignRequestId(req, res);
    res.locals.requestId = requestId;
    res.on('finish', () => {
      const seconds = (performance.now() - start) / 1e3;
      metrics.observe(req.method, routeLabel(req), res.statusCode, seconds);
      if (res.statusCode === 429) {
        // Every rate limit names its bucket on its 429 (docs/api.md §1), whoever renders it.
        const bucket = res.getHeader('X-RateLimit-Bucket');
        if (typeof bucket === 'string') metrics.refused(bucket);
      }
      // winston formats a line before its transports drop it for its level: ask first
      if (options.logger.isLevelEnabled('http')) {
        options.logger.http('request', {
          requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(seconds * 1e4) / 10,
        });
      }
    });
    runWithRequestId(requestId, next);
  });
  applyExpressSettings(app);
  // The shape of the query, before anything else: like a malformed request line, a bracketed or
  // repeated parameter says nothing about the client's key or the route.
  app.use(strictQuery(options.queryLists));
  // A GET (most of the traffic) has no body to parse: it skips the parsers and their content-type checks.
  const bodyParsers = bodyParsersOf(options.config.bodyLimitBytes);
  const largerBodies = new Map(
    Object.entries(options.bodyLimits ?? {}).map(([route, limit]) => [
      route,
      bodyParsersOf(Math.max(limit, options.config.bodyLimitBytes)),
    ]),
  );
  app.use((req, res, next) => {
    if (!BODY_METHODS.has(req.method) && !hasBody(req)) {
      next();
      return;
    }
    // Not read at all: node discards the body once the answer is sent.
    const undecodable = hasBody(req) ? undecodableBody(req) : undefined;
    if (undecodable) {
      deferBodyError(req, res, undecodable);
      next();
    } else {
      const parsers =
        largerBodies.size === 0 ? bodyParsers : (largerBodies.get(`${req.method} ${req.path}`) ?? bodyParsers);
      parsers(req, res, next);
    }
  });

  app.get('/online', (_req, res) => {
    res.json({
      success: true,
      uptime: Math.floor((Date.now() - startedAt) / 1000),
      readOnly: options.readOnly.enabled,
    });
  });
  // Readiness, not liveness: a load balancer takes the instance out while a dependency is down.
  app.get('/ready', async (_req, res) => {
    const checks = options.readiness ? await options.readiness() : {};
    const down = Object.keys(checks).filter((name) => checks[name] === 'down');
    res.setHeader('Cache-Control', 'no-store');
    if (down.length === 0) {
      res.json({ success: true, ready: true, checks });
      return;
    }
    const error = new ApiError('DEPENDENCY_UNAVAILABLE', { message: `Not ready: ${down.join(' and ')} unavailable.` });
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    res.status(error.httpStatus).json({ ...error.toBody(), checks });
  });

  // Served on the metrics listener only; here an unknown route on every service, so no
  // parameterised route (an images category, a short code) takes the path either.
  app.all('/metrics', () => {
    throw new ApiError('UNKNOWN_ROUTE');
  });
  // Fixed paths own every method (405 with Allow), as their documents say: a parameterised route
  // of the service (`/:code`) never takes `PATCH /online`.
  for (const path of ['/online', '/ready']) app.all(path, onlyMethods('GET', 'HEAD'));
  if (options.docs) registerDocsRoutes(app, options.service, options.docs);

  let finalized = false;
  return {
    app,
    metrics,
    finalize() {
      if (finalized) return app;
      finalized = true;
      app.use(unknownRouteHandler(app));
      app.use(errorRenderer(options.logger));
      return app;
    },
  };
}

/** Route guard for endpoints docs/api.md marks read-only affected: 503 code 1003 while the switch is on. */
export function requireWritable(readOnly: ReadOnlySwitch): RequestHandler {
  return (_req, _res, next) => {
    next(readOnly.enabled ? new ApiError('READ_ONLY') : undefined);
  };
}
