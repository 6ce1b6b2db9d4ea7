import { Errors } from '@pawlink/contracts';
import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { ApiError, isApiError } from './api-error.js';
import { undecodableBodyError } from './body-encoding.js';
import type { Logger } from './logger.js';
import { unavailableDependencyOf } from './dependencies/dependency-failure.js';
import { allowedMethods } from './method-not-allowed.js';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/** A body parser's failure (unreadable, too large, undecodable) as its registry error; undefined for anything else. */
export function bodyParserError(error: unknown): ApiError | undefined {
  if (typeof error !== 'object' || error === null || error instanceof URIError) return undefined;
  const { type, status, statusCode } = error as HttpishError;
  const undecodable = undecodableBodyError(error);
  if (undecodable) return undecodable;
  switch (type) {
    case 'entity.too.large':
      return new ApiError('BODY_TOO_LARGE', { cause: error });
    case 'entity.parse.failed':
    case 'entity.verify.failed':
    case 'request.size.invalid':
    case 'parameters.too.many':
      return new ApiError('MALFORMED_BODY', { cause: error });
    default:
      break;
  }
  // Any other 400 from the body parser (a corrupt compressed body, say) is a malformed body.
  if ((status ?? statusCode) === 400) return new ApiError('MALFORMED_BODY', { cause: error });
  return undefined;
}

/** Redis or the database is down or stalled: 503 1004 with the registry's Retry-After, whatever the route was doing. */
export function dependencyError(error: unknown): ApiError | undefined {
  const dependency = unavailableDependencyOf(error);
  return dependency === undefined ? undefined : new ApiError('DEPENDENCY_UNAVAILABLE', { cause: error });
}

/** Body-parser and router failures that are the client's fault, and unavailable dependencies, mapped to registry codes. */
function knownError(error: unknown): ApiError | undefined {
  // Express answers undecodable percent-escapes in a path with a URIError: no route has that path.
  if (error instanceof URIError) return new ApiError('UNKNOWN_ROUTE');
  return bodyParserError(error) ?? dependencyError(error);
}

/** Unknown route (1024) or, when another method would match, 405 (1025) with `Allow`. */
export function unknownRouteHandler(app: Express): RequestHandler {
  return (req, res) => {
    const allowed = allowedMethods(app, req);
    if (allowed.length > 0 && req.method === 'OPTIONS') {
      res.setHeader('Allow', allowed.join(', '));
      res.status(204).end();
      return;
    }
    const error = allowed.length > 0 ? new ApiError('METHOD_NOT_ALLOWED') : new ApiError('UNKNOWN_ROUTE');
    if (allowed.length > 0) res.setHeader('Allow', allowed.join(', '));
    res.status(error.httpStatus).json(error.toBody());
  };
}

/** The single renderer of failures: registry codes as they are, anything else as code 0. */
export function errorRenderer(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = isApiError(error) ? error : knownError(error);
    if (known) {
      for (const [name, value] of Object.entries(known.headers)) res.setHeader(name, value);
      res.status(known.httpStatus).json(known.toBody());
      return;
    }
    logger.error('unhandled error', {
      error,
      method: req.method,
      path: req.path,
      requestId: res.getHeader('X-Request-Id'),
    });
    res
      .status(Errors.INTERNAL_ERROR.status)
      .json({ success: false, error: Errors.INTERNAL_ERROR.message, code: Errors.INTERNAL_ERROR.code });
  };
}
