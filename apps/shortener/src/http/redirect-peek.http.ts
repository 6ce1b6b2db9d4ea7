import type { IncomingMessage } from 'node:http';
import {
  needsLookup,
  type RedirectLookup,
  type RedirectPeek,
  type RedirectShortUrlService,
} from '../services/redirect-short-url.service.js';

const PEEKED = Symbol('redirect peek');

/** A request that a redirect peek has left a lookup on. */
type PeekedRequest = IncomingMessage & { [PEEKED]?: RedirectLookup };

/** Left on the request by the fast lane when memory cannot answer, for the Express route it goes on to. */
export function keepPeek(req: IncomingMessage, lookup: RedirectLookup): void {
  (req as PeekedRequest)[PEEKED] = lookup;
}

/**
 * The redirect peek of `code` for this request: the one the fast lane (or the lookup limit) left
 * on it, else made now and left for the next step. So a miss peeks memory once, in whichever step
 * comes first, and the limit and the handler read the same answer.
 */
export function peekOnce(
  redirects: Pick<RedirectShortUrlService, 'peek'>,
  req: IncomingMessage,
  code: string,
): RedirectPeek {
  const kept = (req as PeekedRequest)[PEEKED];
  if (kept !== undefined && kept.code === code) return kept;
  const peek = redirects.peek(code);
  if (needsLookup(peek)) keepPeek(req, peek);
  return peek;
}
