import { SHORT_CODE_MAX_LENGTH } from '@pawlink/contracts';
import { assignRequestId } from '@pawlink/service-kit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import { RESERVED_CODES } from '../services/shortener.policy.js';
import { sendRedirect } from './send-redirect.js';

const CODE_PATH = new RegExp(`^/[A-Za-z0-9-]{1,${SHORT_CODE_MAX_LENGTH}}$`);

/**
 * Reserved words name Express routes (`/create`, `/delete`, `/online`, `/metrics`, …), matched
 * case-insensitively as Express matches them. No entry can have such a code, but whatever the cache
 * holds, this path must never answer one of those routes with a redirect.
 */
const RESERVED_PATH = new RegExp(`^/(?:${[...RESERVED_CODES].join('|')})$`, 'i');

/** Called after each redirect answered here, for the metrics Express would have recorded. */
export type FastRedirectObserver = (method: string, seconds: number) => void;

/**
 * Answers `GET|HEAD /<code>` straight from the in-process cache, before Express: no middleware
 * stack, no I/O, so it reads the cache repository's memory directly rather than through the
 * service (docs/adr/0006). Returns false (and touches nothing) for everything else — misses,
 * previews, JSON, reserved words, other methods — which Express then handles.
 */
export function createFastRedirect(cache: Pick<RedirectCacheRepository, 'peek'>, cacheControl: string, onRedirect: FastRedirectObserver) {
  return function tryFastRedirect(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const start = process.hrtime.bigint();
    const raw = req.url ?? '';
    const query = raw.indexOf('?');
    const path = query === -1 ? raw : raw.slice(0, query);
    if (!CODE_PATH.test(path)) return false;
    const location = cache.peek(path.slice(1));
    if (location === undefined || RESERVED_PATH.test(path)) return false;
    assignRequestId(req, res);
    sendRedirect(res, location, cacheControl);
    onRedirect(method, Number(process.hrtime.bigint() - start) / 1e9);
    return true;
  };
}
