import { ApiError } from '@pawlink/service-kit';
import type { Request, RequestHandler } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser sent from another site (403 code 1023): the
 * admin pages act with the operator's cookie, so a page elsewhere must not make them act.
 * `Sec-Fetch-Site` decides when the browser sent it; else `Origin`, which must be the service's
 * own (THUMBS_URL, or the address the request was sent to). Clients that send neither (curl) pass.
 */
export function refuseCrossSite(publicUrl: string): RequestHandler {
  const publicOrigin = new URL(publicUrl).origin;
  const sameOrigin = (req: Request, origin: string): boolean =>
    origin === publicOrigin || origin === `${req.protocol}://${req.get('host') ?? ''}`;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const refused =
      site !== undefined ? site !== 'same-origin' && site !== 'none' : origin !== undefined && !sameOrigin(req, origin);
    next(refused ? new ApiError('CROSS_SITE_REQUEST') : undefined);
  };
}
