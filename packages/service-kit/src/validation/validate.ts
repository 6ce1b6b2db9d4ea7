import type { Request, RequestHandler } from 'express';
import { matchedData, type Meta, type ValidationChain, type ValidationError } from 'express-validator';
import { ApiError } from '../api-error.js';
import { asInputFailure, InputFailure } from './input-failure.js';

/** Thrown when a chain fails without naming a contract error: a bug in the chain, answered as code 0. */
export class UncodedValidationError extends Error {
  constructor(readonly path: string, readonly detail: unknown) {
    super(`validation of "${path}" failed without a contract error: ${String(detail)}`);
    this.name = 'UncodedValidationError';
  }
}

/** The registry error a failed check names; a check that names none is a bug in its chain. */
function errorOf(first: ValidationError | undefined): Error {
  const failure: unknown = first?.msg;
  if (!(failure instanceof InputFailure)) return new UncodedValidationError(first?.type === 'field' ? first.path : '(request)', failure);
  return new ApiError(failure.error, failure.message === undefined ? {} : { message: failure.message });
}

/**
 * The validation step of a route: runs the express-validator chains in the order given and stops
 * at the first that fails, whose first failure becomes the contract's error (code and message). So
 * the first field listed is the first reported, and a bad request costs one failed check.
 */
export function validate(...chains: ValidationChain[]): RequestHandler {
  return async (req, _res, next) => {
    for (const chain of chains) {
      const result = await chain.run(req);
      if (!result.isEmpty()) {
        next(errorOf(result.array()[0]));
        return;
      }
    }
    next();
  };
}

/** The request's validated and sanitized values (optional fields that were absent are left out). */
export function validated<T>(req: Request): T {
  return matchedData(req, { onlyValidData: true }) as T;
}

/**
 * A domain rule as one check-and-convert step: `parse` returns the value to keep or throws the
 * ApiError (or InputFailure) the contract gives for it. The converted value is what the handler reads.
 * `meta` is express-validator's (the request, the field), for a rule that depends on the app's settings.
 */
export function parsedBy<T>(chain: ValidationChain, parse: (value: unknown, meta: Meta) => T): ValidationChain {
  return chain
    .customSanitizer((value: unknown, meta: Meta) => {
      try {
        return parse(value, meta);
      } catch (error) {
        return asInputFailure(error);
      }
    })
    .custom((value: unknown) => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- express-validator keeps a thrown non-Error whole as the failure
      if (value instanceof InputFailure) throw value;
      return true;
    });
}
