import { isApiError } from '../api-error.js';
import { validate, validated } from './validate.js';
import type { Request, Response } from 'express';
import type { ValidationChain } from 'express-validator';

export type ValidationOutcome<T> = { ok: true; input: T } | { ok: false; code: number | undefined; message: string };

/**
 * Runs a route's chains through `validate()` on a bare request, as Express would: the first
 * failure, as the contract code and message the client would get, or the validated input. For
 * specs of validation chains, without an HTTP server.
 */
export async function runValidation<T>(
  chains: ValidationChain[],
  request: {
    query?: Record<string, unknown>;
    params?: Record<string, unknown>;
    body?: unknown;
    headers?: Record<string, unknown>;
  },
): Promise<ValidationOutcome<T>> {
  const req = { query: {}, params: {}, headers: {}, ...request } as unknown as Request;
  // A check that throws something other than a contract failure (a bug) rejects, as Express would answer it 500.
  const failure = await new Promise<unknown>((resolve, reject) => {
    Promise.resolve(validate(...chains)(req, {} as Response, resolve)).catch(reject);
  });
  if (failure !== undefined)
    return { ok: false, code: isApiError(failure) ? failure.code : undefined, message: (failure as Error).message };
  return { ok: true, input: validated<T>(req) };
}

/** The code of the first failure, or 'ok'. */
export async function codeOf(
  chains: ValidationChain[],
  request: Parameters<typeof runValidation>[1],
): Promise<number | 'ok' | undefined> {
  const outcome = await runValidation(chains, request);
  return outcome.ok ? 'ok' : outcome.code;
}
