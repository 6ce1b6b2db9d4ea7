import type { Request } from 'express';

/** The parsed JSON or form body as a record; anything else (none, an array, a scalar) is empty. */
export function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/**
 * `?editable`: on unless the exact value `false` is given, as the original server read it (its
 * official client sends no parameter and expects a management code). A repeated parameter arrives
 * as an array and the last value wins, as when a client appends it to a query that already had it.
 */
export function editableFlag(req: Request): boolean {
  const raw: unknown = (req.query as Record<string, unknown>).editable;
  const value: unknown = Array.isArray(raw) ? raw.at(-1) : raw;
  return value !== 'false';
}
