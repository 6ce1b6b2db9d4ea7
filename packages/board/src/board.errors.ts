/** The board could not answer: network failure, timeout, 5xx/429 after every retry, or an unexpected answer. */
export class BoardUnavailableError extends Error {
  constructor(message: string, readonly status: number | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BoardUnavailableError';
  }
}
