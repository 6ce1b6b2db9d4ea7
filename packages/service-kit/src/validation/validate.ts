import type { Request, RequestHandler } from 'express';
import { matchedData, validationResult, type ValidationChain } from 'express-validator';
import { ApiError } from '../api-error.js';
import { asInputFailure, InputFailure } from './input-failure.js';

/** Thrown when a chain fails without naming a contract error: a bug in the chain, answered as code 0. */
export class UncodedValidationError extends Error {
  constructor(readonly path: string, readonly detail: unknown) {
    super(`validation of "${path}" failed without a contract error: ${String(detail)}`);
    this.name = 'UncodedValidationError';
  }
}

/**
 * Turns the first failed check of the request into its registry error. Chains run in the order
 * given, so the first field listed is the first reported, as the contract's examples expect.
 */
const reportFirstFailure: RequestHandler = (req, _res, next) => {
  const result = validationResult(req);
  if (result.isEmpty()) {
    next();
    return;
  }
  const [first] = result.array();
  const failure: unknown = first?.msg;
  if (!(failure instanceof InputFailure)) {
    next(new UncodedValidationError(first?.type === 'field' ? first.path : '(request)', failure));
    return;
  }
  next(new ApiError(failure.error, failure.message === undefined ? {} : { message: failure.message }));
};

/**
 * The validation step of a route: the express-validator chains, then one translation of the
 * first failure to the contract's code and message. Each chain stops the others once it fails
 * (`bail({ level: 'request' })` semantics), so a bad request costs one failed check.
 */
export function validate(...chains: ValidationChain[]): RequestHandler[] {
  return [...chains.map((chain) => chain.bail({ level: 'request' })), reportFirstFailure];
}

/** The request's validated and sanitized values (optional fields that were absent are left out). */
export function validated<T>(req: Request): T {
  return matchedData(req, { onlyValidData: true }) as T;
}

/**
 * A domain rule as one check-and-convert step: `parse` returns the value to keep or throws the
 * ApiError (or InputFailure) the contract gives for it. The converted value is what the handler reads.
 */
export function parsedBy<T>(chain: ValidationChain, parse: (value: unknown) => T): ValidationChain {
  return chain
    .customSanitizer((value: unknown) => {
      try {
        return parse(value);
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
