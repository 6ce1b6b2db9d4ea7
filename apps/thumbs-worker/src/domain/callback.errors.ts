/** A delivery that must not be tried again: the worker fails it for good (BullMQ's UnrecoverableError). */
export abstract class FinalCallbackError extends Error {}

/** A callback URL whose host resolves to an address callbacks may not reach: never tried again. */
export class CallbackRefusedError extends FinalCallbackError {
  constructor(message: string) {
    super(message);
    this.name = 'CallbackRefusedError';
  }
}

/** The receiver answered, but not with a 2xx: tried again on the schedule. */
export class CallbackRejectedError extends Error {
  constructor(readonly status: number) {
    super(`the receiver answered HTTP ${status}`);
    this.name = 'CallbackRejectedError';
  }
}

/** The receiver answered 410 Gone (Standard Webhooks: stop sending): never tried again, and the URL is disabled. */
export class CallbackGoneError extends FinalCallbackError {
  constructor() {
    super('the receiver answered HTTP 410 Gone: not tried again, and its deliveries registered before now are dropped');
    this.name = 'CallbackGoneError';
  }
}

/** The URL answered 410 after this delivery was registered: dropped unsent. */
export class CallbackDisabledError extends FinalCallbackError {
  constructor(goneAt: number) {
    super(
      `not sent: the URL answered HTTP 410 Gone at ${new Date(goneAt).toISOString()}, after this callback was registered`,
    );
    this.name = 'CallbackDisabledError';
  }
}

/** The key has no webhook secret to sign with (yet): tried again, so an operator may still make one. */
export class WebhookSecretMissingError extends Error {
  constructor(apiKeyId: number) {
    super(`API key ${apiKeyId} has no webhook secret; make one with bin/admin apikey webhook-secret ${apiKeyId}`);
    this.name = 'WebhookSecretMissingError';
  }
}
