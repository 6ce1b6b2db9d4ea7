import { CALLBACK_SIGNATURE_HEADER, type ThumbnailCallbackDelivery } from '@pawlink/contracts';
import type { WebhookSecretService } from '@pawlink/auth';
import type { CallbackSenderRepository } from '../repositories/callback-sender.repository.js';
import { CallbackRejectedError, WebhookSecretMissingError } from './callback.errors.js';
import { callbackSignature } from './callback-signature.rules.js';

export interface CallbackDeliveryDeps {
  secrets: Pick<WebhookSecretService, 'current'>;
  sender: Pick<CallbackSenderRepository, 'post'>;
  clock: () => number;
}

/**
 * One attempt at a delivery: signed afresh (a new `t`) with the key's webhook secret as it is at
 * this moment, POSTed as JSON; anything but a 2xx answer is a failure the queue retries.
 */
export class CallbackDeliveryService {
  constructor(private readonly deps: CallbackDeliveryDeps) {}

  /** The receiver's 2xx status; throws for no secret, no answer, a refused address or another status. */
  async attempt(delivery: ThumbnailCallbackDelivery): Promise<number> {
    const { secrets, sender, clock } = this.deps;
    const secret = await secrets.current(delivery.apiKeyId);
    if (!secret) throw new WebhookSecretMissingError(delivery.apiKeyId);
    const body = JSON.stringify(delivery.payload);
    const signature = callbackSignature(secret, body, Math.floor(clock() / 1000));
    const status = await sender.post(delivery.callbackURL, body, {
      'Content-Type': 'application/json',
      [CALLBACK_SIGNATURE_HEADER]: signature,
    });
    if (status < 200 || status > 299) throw new CallbackRejectedError(status);
    return status;
  }
}
