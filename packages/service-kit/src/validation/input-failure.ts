import type { ErrorName } from '@pawlink/contracts';
import { isApiError } from '../api-error.js';

/**
 * What a failed check means in the contract: a registry error and, when it says more than the
 * registry's default, its message. Deliberately not an Error: express-validator keeps a thrown
 * non-Error (or a `withMessage` value) whole as the failure's `msg`, where `validate` finds it.
 */
export class InputFailure {
  constructor(
    readonly error: ErrorName,
    readonly message?: string,
  ) {}
}

/** The failure to report when a check fails: `.withMessage(fail('AMOUNT_TOO_LOW'))`. */
export const fail = (error: ErrorName, message?: string): InputFailure => new InputFailure(error, message);

/** Like `fail`, with a message that names the value: `.withMessage(failWith('INVALID_QUERY_VALUE', (v) => …))`. */
export const failWith =
  (error: ErrorName, message: (value: unknown) => string) =>
  (value: unknown): InputFailure =>
    new InputFailure(error, message(value));

/** An ApiError thrown by a domain rule, as the failure express-validator should keep. */
export function asInputFailure(error: unknown): InputFailure {
  if (error instanceof InputFailure) return error;
  if (isApiError(error)) return new InputFailure(error.errorName, error.message);
  throw error;
}
