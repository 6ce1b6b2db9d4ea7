/** A callback URL whose host resolves to an address callbacks may not reach: never tried again. */
export class CallbackRefusedError extends Error {
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

/** The key has no webhook secret to sign with (yet): tried again, so an operator may still make one. */
export class WebhookSecretMissingError extends Error {
  constructor(apiKeyId: number) {
    super(`API key ${apiKeyId} has no webhook secret; make one with bin/admin apikey webhook-secret ${apiKeyId}`);
    this.name = 'WebhookSecretMissingError';
  }
}
