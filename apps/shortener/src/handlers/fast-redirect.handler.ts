import { SHORT_CODE_MAX_LENGTH } from '@pawlink/contracts';
import { assignRequestId } from '@pawlink/service-kit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedirectCacheRepository } from '../repositories/redirect-cache.repository.js';
import type { VisitTallyRepository } from '../repositories/visit-tally.repository.js';
import { RESERVED_CODES } from '../services/shortener.policy.js';
import { isCountedVisit } from '../services/visitor.rules.js';
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

export interface FastRedirectDeps {
  cache: Pick<RedirectCacheRepository, 'peek'>;
  /** Where counted visits go; null when counting is off. */
  tally: Pick<VisitTallyRepository, 'add'> | null;
  /** Unix ms, to compare expiry dates with. */
  now: () => number;
  cacheControl: string;
  onRedirect: FastRedirectObserver;
}

/**
 * Answers `GET|HEAD /<code>` straight from the in-process cache, before Express: no middleware
 * stack, no I/O, so it reads the cache repository's memory directly rather than through the
 * service (docs/adr/0006). A counted visit (a GET by a non-bot) is one Map update in the tally.
 * Returns false (and touches nothing) for everything else — misses, previews, JSON, reserved
 * words, other methods, links past their `expiresAt` (410) and `maxVisits` links (each visit is
 * admitted against MySQL) — which Express then handles.
 */
export function createFastRedirect({ cache, tally, now, cacheControl, onRedirect }: FastRedirectDeps) {
  return function tryFastRedirect(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const start = process.hrtime.bigint();
    const raw = req.url ?? '';
    const query = raw.indexOf('?');
    const path = query === -1 ? raw : raw.slice(0, query);
    if (!CODE_PATH.test(path)) return false;
    const code = path.slice(1);
    const link = cache.peek(code);
    if (link === undefined || link.limited || (link.expiresAt !== null && link.expiresAt <= now()) || RESERVED_PATH.test(path)) return false;
    if (tally !== null && isCountedVisit(method, req.headers['user-agent'])) tally.add(code);
    assignRequestId(req, res);
    sendRedirect(res, link.url, cacheControl);
    onRedirect(method, Number(process.hrtime.bigint() - start) / 1e9);
    return true;
  };
}
