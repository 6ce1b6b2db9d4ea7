import type { Express, RequestHandler } from 'express';

/**
 * Express 5's `req.query` is a getter that parses the query string again on every read, so a
 * validation chain's sanitized value would be lost before the next chain or the handler reads it,
 * and every read costs a parse. Parsed once, it becomes a plain property of the request.
 */
export const parseQueryOnce: RequestHandler = (req, _res, next) => {
  Object.defineProperty(req, 'query', { value: req.query, writable: true, enumerable: true, configurable: true });
  next();
};

/**
 * The settings every Pawlink Express app runs with, and the benchmark's bare "framework ceiling"
 * too (docs/adr/0011): no ETag hashing of every answer (a route that offers validators sets its
 * own), no `X-Powered-By`, and the query string parsed once per request. Kept free of the rest of
 * the kit so a bare benchmark server can import it alone (`@pawlink/service-kit/express-settings`).
 */
export function applyExpressSettings(app: Express): void {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(parseQueryOnce);
}
