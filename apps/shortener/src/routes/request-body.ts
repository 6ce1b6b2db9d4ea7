import type { Request } from 'express';

/** The parsed JSON or form body as a record; anything else (none, an array, a scalar) is empty. */
export function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const TRUE = new Set(['true', '1', 'yes', 'on']);

/**
 * `?flag=true` (also 1/yes/on); anything else, or nothing, is false. A repeated flag arrives as an
 * array and the last value wins, as when a client appends the flag to a query that already had it.
 */
export function queryFlag(req: Request, name: string): boolean {
  const raw: unknown = (req.query as Record<string, unknown>)[name];
  const value: unknown = Array.isArray(raw) ? raw.at(-1) : raw;
  return typeof value === 'string' && TRUE.has(value.toLowerCase());
}
