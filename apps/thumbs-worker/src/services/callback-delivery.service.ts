import {
  CALLBACK_SIGNATURE_HEADER,
  STANDARD_WEBHOOK_HEADERS,
  type ThumbnailCallbackDelivery,
} from '@pawlink/contracts';
import { webhookSecretBytes, type WebhookSecretService } from '@pawlink/auth';
import type { CallbackGoneRepository } from '../repositories/callback-gone.repository.js';
import type { CallbackSenderRepository } from '../repositories/callback-sender.repository.js';
import {
  CallbackDisabledError,
  CallbackGoneError,
  CallbackRejectedError,
  WebhookSecretMissingError,
} from '../domain/callback.errors.js';
import { callbackSignature, standardWebhookSignature } from '../domain/callback-signature.rules.js';

export interface CallbackDeliveryDeps {
  secrets: Pick<WebhookSecretService, 'signing'>;
  sender: Pick<CallbackSenderRepository, 'post'>;
  gone: Pick<CallbackGoneRepository, 'mark' | 'since'>;
  clock: () => number;
}

/** A delivery with its event id and registration time known (the worker fills them in for deliveries queued without). */
export type CallbackAttempt = ThumbnailCallbackDelivery &
  Required<Pick<ThumbnailCallbackDelivery, 'webhookId' | 'registeredAt'>>;

/**
 * One attempt at a delivery: signed afresh (a new timestamp) with the key's webhook secrets as
 * they are at this moment, POSTed as JSON with the Standard Webhooks headers and the legacy
 * `X-Pawlink-Signature`; anything but a 2xx answer is a failure the queue retries, except a 410,
 * which ends it and disables the URL for the key's deliveries registered before it.
 */
export class CallbackDeliveryService {
  constructor(private readonly deps: CallbackDeliveryDeps) {}

  /** The receiver's 2xx status; throws for no secret, no answer, a refused or gone address, or another status. */
  async attempt(delivery: CallbackAttempt): Promise<number> {
    const { secrets, sender, gone, clock } = this.deps;
    const goneAt = await gone.since(delivery.apiKeyId, delivery.callbackURL);
    if (goneAt !== null && delivery.registeredAt <= goneAt) throw new CallbackDisabledError(goneAt);
    const signing = await secrets.signing(delivery.apiKeyId);
    const key = signing && webhookSecretBytes(signing.current);
    if (!signing || !key) throw new WebhookSecretMissingError(delivery.apiKeyId);
    const previousKeys = signing.previous.flatMap((secret) => webhookSecretBytes(secret) ?? []);
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(clock() / 1000);
    const status = await sender.post(delivery.callbackURL, body, {
      'Content-Type': 'application/json',
      [STANDARD_WEBHOOK_HEADERS.id]: delivery.webhookId,
      [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [STANDARD_WEBHOOK_HEADERS.signature]: standardWebhookSignature(
        [key, ...previousKeys],
        delivery.webhookId,
        timestamp,
        body,
      ),
      [CALLBACK_SIGNATURE_HEADER]: callbackSignature(signing.current, body, timestamp),
    });
    if (status === 410) {
      await gone.mark(delivery.apiKeyId, delivery.callbackURL);
      throw new CallbackGoneError();
    }
    if (status < 200 || status > 299) throw new CallbackRejectedError(status);
    return status;
  }
}
