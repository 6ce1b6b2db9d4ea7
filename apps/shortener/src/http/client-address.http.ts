import type { IncomingMessage } from 'node:http';

/**
 * The visitor's address as Express's `req.ip` gives it under `trust proxy` = `hops` (TRUST_PROXY):
 * the peer, or with `hops` proxies in front, the X-Forwarded-For entry `hops` places from the right
 * (the leftmost when there are fewer). For the fast lane, which answers before Express.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  if (hops === 0) return req.socket.remoteAddress ?? '';
  // Node joins repeated X-Forwarded-For fields with ", ", as one list.
  const forwarded = req.headers['x-forwarded-for'] as string | undefined;
  if (forwarded === undefined || forwarded === '') return req.socket.remoteAddress ?? '';
  // Read right to left as Express does (hop 1 is the last entry), without splitting the list.
  let end = forwarded.length;
  for (let hop = 1; ; hop++) {
    const comma = forwarded.lastIndexOf(',', end - 1);
    if (comma === -1) return forwarded.slice(0, end).trim();
    if (hop === hops) return forwarded.slice(comma + 1, end).trim();
    end = comma;
  }
}
