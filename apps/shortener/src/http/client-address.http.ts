import type { IncomingMessage } from 'node:http';

/**
 * The visitor's address as Express's `req.ip` gives it under `trust proxy` = `hops` (TRUST_PROXY):
 * the peer, or with `hops` proxies in front, the X-Forwarded-For entry `hops` places from the right
 * (the leftmost when there are fewer). For the fast lane, which answers before Express.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (hops === 0) return peer;
  // Node joins repeated X-Forwarded-For fields with ", ", as one list.
  const forwarded = req.headers['x-forwarded-for'] as string | undefined;
  if (forwarded === undefined || forwarded === '') return peer;
  const chain = forwarded.split(',');
  // Express reads the chain right to left: hop 1 is the last entry, and so on.
  const at = Math.max(0, chain.length - hops);
  return chain[at]!.trim();
}
