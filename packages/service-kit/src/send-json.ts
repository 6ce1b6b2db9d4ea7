import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * `res.json` of our apps: the body serialised once and written with the head in one write.
 * Express's own turns the text into a Buffer first, so head and body leave as two chunks (a
 * writev), after its general `send` (ETag, freshness, charset parsing) that no JSON answer here
 * uses. The bytes and headers are the same: `application/json; charset=utf-8` unless the route set
 * another type, and a Content-Length (kept for HEAD, whose body Node drops).
 */
export function sendJson(this: Response, body: unknown): Response {
  const text = JSON.stringify(body) ?? '';
  if (!this.hasHeader('Content-Type')) this.setHeader('Content-Type', 'application/json; charset=utf-8');
  this.setHeader('Content-Length', Buffer.byteLength(text));
  this.end(text);
  return this;
}

/** A strong validator of the exact bytes of an answer: their length and SHA-1, as Express's own ETags are made. */
function entityTag(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return `"${bytes.length.toString(16)}-${createHash('sha1').update(bytes).digest('base64').slice(0, 27)}"`;
}

/**
 * Whether `If-None-Match` names `etag` (weak comparison, RFC 9110 §13.1.2). An origin server
 * answers such a GET with 304 whatever the request's Cache-Control says (fetch adds `no-cache`
 * to every conditional request), so Express's `req.fresh`, a cache's view, is not used.
 */
function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === opaque;
  });
}

/**
 * A JSON answer that clients may revalidate: it carries an `ETag`, and a request whose
 * `If-None-Match` names it gets 304 with no body. Only for answers a client polls and that rarely
 * change (the category lists); API answers in general carry no ETag, whose hash every request
 * would pay (docs/adr/0011).
 */
export function sendRevalidatableJson(req: Request, res: Response, body: unknown): void {
  const text = JSON.stringify(body) ?? '';
  const etag = entityTag(text);
  res.setHeader('ETag', etag);
  if ((req.method === 'GET' || req.method === 'HEAD') && ifNoneMatchMatches(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
