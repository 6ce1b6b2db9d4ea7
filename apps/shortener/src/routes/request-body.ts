import type { Request } from 'express';

/** The parsed JSON or form body as a record; anything else (none, an array, a scalar) is empty. */
export function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const TRUE = new Set(['true', '1', 'yes', 'on']);

/** `?flag=true` (also 1/yes/on); anything else, or nothing, is false. */
export function queryFlag(req: Request, name: string): boolean {
  const value: unknown = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' && TRUE.has(value.toLowerCase());
}
