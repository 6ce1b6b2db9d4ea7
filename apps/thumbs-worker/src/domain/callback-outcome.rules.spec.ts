import { SecretsKeyMissingError } from '@pawlink/auth';
import { describe, expect, it } from 'vitest';
import {
  CallbackDisabledError,
  CallbackGoneError,
  CallbackRefusedError,
  CallbackRejectedError,
  WebhookSecretMissingError,
} from './callback.errors.js';
import { callbackAttemptOutcomeOf, callbackDeliveryEndOf } from './callback-outcome.rules.js';

describe('callback outcomes', () => {
  it('name each way an attempt fails', () => {
    expect(callbackAttemptOutcomeOf(new CallbackRejectedError(503))).toBe('rejected');
    expect(callbackAttemptOutcomeOf(new CallbackGoneError())).toBe('gone');
    expect(callbackAttemptOutcomeOf(new CallbackDisabledError(1))).toBe('disabled');
    expect(callbackAttemptOutcomeOf(new CallbackRefusedError('10.0.0.1'))).toBe('refused');
    expect(callbackAttemptOutcomeOf(new WebhookSecretMissingError(1))).toBe('unsigned');
    expect(callbackAttemptOutcomeOf(new SecretsKeyMissingError())).toBe('unsigned');
    expect(callbackAttemptOutcomeOf(new Error('connect ECONNREFUSED'))).toBe('error');
  });

  it('end a delivery on a 410 (gone), a final refusal or the last attempt (failed), else not yet', () => {
    expect(callbackDeliveryEndOf(new CallbackGoneError(), 3)).toBe('gone');
    expect(callbackDeliveryEndOf(new CallbackDisabledError(1), 3)).toBe('gone');
    expect(callbackDeliveryEndOf(new CallbackRefusedError('x'), 3)).toBe('failed');
    expect(callbackDeliveryEndOf(new CallbackRejectedError(500), 0)).toBe('failed');
    expect(callbackDeliveryEndOf(new CallbackRejectedError(500), 1)).toBeUndefined();
    expect(callbackDeliveryEndOf(new Error('timeout'), 2)).toBeUndefined();
  });
});
