import { SecretsKeyMissingError } from '@pawlink/auth';
import {
  CallbackDisabledError,
  CallbackGoneError,
  CallbackRefusedError,
  CallbackRejectedError,
  FinalCallbackError,
  WebhookSecretMissingError,
} from './callback.errors.js';

/** How one delivery attempt went (`thumbs_callback_attempts_total`). */
export type CallbackAttemptOutcome = 'delivered' | 'rejected' | 'gone' | 'disabled' | 'refused' | 'unsigned' | 'error';

/** How a delivery ended (`thumbs_callback_deliveries_total`). */
export type CallbackDeliveryResult = 'delivered' | 'gone' | 'failed';

/**
 * The outcome of an attempt that threw `error`: the receiver answered another status (rejected)
 * or 410 (gone), the URL was dropped for an earlier 410 (disabled), its address is not allowed
 * (refused), there was no secret to sign with (unsigned), or no answer came (error: a timeout, a
 * refused connection, DNS, the database of secrets).
 */
export function callbackAttemptOutcomeOf(error: unknown): CallbackAttemptOutcome {
  if (error instanceof CallbackRejectedError) return 'rejected';
  if (error instanceof CallbackGoneError) return 'gone';
  if (error instanceof CallbackDisabledError) return 'disabled';
  if (error instanceof CallbackRefusedError) return 'refused';
  if (error instanceof WebhookSecretMissingError || error instanceof SecretsKeyMissingError) return 'unsigned';
  return 'error';
}

/**
 * How the delivery ends when an attempt threw `error`: undefined while attempts are left and the
 * error allows another; gone when the receiver said 410 (now or before); else failed.
 */
export function callbackDeliveryEndOf(error: unknown, attemptsLeft: number): CallbackDeliveryResult | undefined {
  if (error instanceof CallbackGoneError || error instanceof CallbackDisabledError) return 'gone';
  if (error instanceof FinalCallbackError || attemptsLeft <= 0) return 'failed';
  return undefined;
}
