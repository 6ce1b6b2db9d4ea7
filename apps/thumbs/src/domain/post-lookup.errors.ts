/** The board could not answer (network, timeout, 5xx after retries, no rate-limit slot soon enough). */
export class PostUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PostUnavailableError';
  }
}

/** The requester (its API key or its client IP) already holds its share of the board budget; it may ask again in `retryAfterMs`. */
export class PostShareUsedError extends Error {
  constructor(
    readonly retryAfterMs: number,
    options?: { cause?: unknown },
  ) {
    super('the requester holds its share of the board budget', options);
    this.name = 'PostShareUsedError';
  }
}
