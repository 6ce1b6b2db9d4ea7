import { isApiError, type ApiError, type Logger } from '@pawlink/service-kit';
import type { Request, RequestHandler, Response } from 'express';

/** Answers a limited request the way its path answers other failures (text for the redirect, HTML for the preview). */
export type SendLimited = (res: Response, error: ApiError) => void;

/**
 * The per-client-IP limit on public redirects and previews that must ask Redis or MySQL
 * (`limit` is the `shortener.lookup` bucket guard): a flood of made-up codes stops costing queries
 * and cache keys once the bucket is spent, while warm redirects (answered before Express, with no
 * Redis round trip) and previews held in memory are never counted, so links people actually follow
 * keep working for a limited address.
 *
 * When the limit itself cannot be asked (Redis down), the request goes through: redirects must
 * keep working from MySQL through a Redis outage. That is logged once when it starts and once
 * when it ends, not per request.
 */
export function createLookupLimit(limit: RequestHandler, logger: Logger) {
  let unavailable = false;

  /** The guard's failure (thrown or passed to next), or undefined when it let the request through. */
  const run = (req: Request, res: Response): Promise<unknown> =>
    new Promise((settle) => {
      Promise.resolve(limit(req, res, (error?: unknown) => settle(error))).catch((error: unknown) =>
        settle(error ?? new Error('lookup limit failed')),
      );
    });

  /** Counts a request that must ask Redis or MySQL: the 429 to answer, or undefined to go on. */
  async function count(req: Request, res: Response): Promise<ApiError | undefined> {
    const failure = await run(req, res);
    if (isApiError(failure) && failure.httpStatus === 429) return failure;
    if (failure !== undefined) {
      if (!unavailable)
        logger.warn('lookup limit unavailable; public lookups are not limited until it answers again', {
          error: failure,
        });
      unavailable = true;
      return undefined;
    }
    if (unavailable) logger.info('lookup limit available again');
    unavailable = false;
    return undefined;
  }

  /** A guard counting the request when `needsLookup(:code)` says its answer must come from Redis or MySQL. */
  function when(needsLookup: (code: string) => boolean, send: SendLimited): RequestHandler {
    return async (req, res, next) => {
      const code = req.params.code;
      if (typeof code === 'string' && needsLookup(code)) {
        const limited = await count(req, res);
        if (limited) {
          send(res, limited);
          return;
        }
      }
      next();
    };
  }

  return { count, when };
}

/** What createLookupLimit returns: one limit shared by the redirect, the preview and the QR code. */
export type LimitLookups = ReturnType<typeof createLookupLimit>;
