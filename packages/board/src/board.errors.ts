/** The board could not answer: network failure, timeout, 5xx/429 after every retry, or an unexpected answer. */
export class BoardUnavailableError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BoardUnavailableError';
  }
}

/**
 * The board is fine, but a requester of this lookup (an API key, a client IP) already holds its
 * share of the request budget: nothing was asked. It may ask again in `retryAfterMs`.
 */
export class BoardShareUsedError extends Error {
  constructor(
    message: string,
    readonly requesterId: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'BoardShareUsedError';
  }
}
