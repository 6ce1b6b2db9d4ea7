import { SHORT_CODE_MAX_LENGTH } from '@pawlink/contracts';
import { assignRequestId } from '@pawlink/service-kit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedirectCache } from './redirect-cache.js';
import { sendRedirect } from './routes/send-redirect.js';

const CODE_PATH = new RegExp(`^/[A-Za-z0-9-]{1,${SHORT_CODE_MAX_LENGTH}}$`);

/**
 * Answers `GET|HEAD /<code>` straight from the in-process cache, before Express: no middleware
 * stack, no I/O. Returns false (and touches nothing) for everything else — misses, previews,
 * JSON, other methods — which Express then handles.
 */
export function createFastRedirect(cache: RedirectCache, cacheControl: string, onHit: () => void) {
  return function tryFastRedirect(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const raw = req.url ?? '';
    const query = raw.indexOf('?');
    const path = query === -1 ? raw : raw.slice(0, query);
    if (!CODE_PATH.test(path)) return false;
    const location = cache.peek(path.slice(1));
    if (location === undefined) return false;
    assignRequestId(req, res);
    sendRedirect(res, location, cacheControl);
    onHit();
    return true;
  };
}
