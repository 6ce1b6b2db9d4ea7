import type { Response } from 'express';

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
