import type { ThumbnailFailure } from '@pawlink/contracts';

/**
 * The input cannot be turned into a thumbnail (corrupt, unsupported, over a limit, not on the
 * board, or its URL refused): retrying will not help. The message is the detail for the logs;
 * clients see only the fixed reason of its `failure` class.
 */
export class UnsupportedMediaError extends Error {
  readonly failure: ThumbnailFailure;

  constructor(message: string, options: { cause?: unknown; failure?: ThumbnailFailure } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UnsupportedMediaError';
    this.failure = options.failure ?? 'unreadable';
  }
}

/**
 * A failure a later attempt may not have (network, a 5xx on the file, bytes that did not match):
 * the queue retries it. The message is the detail for the logs.
 */
export class RetryableJobError extends Error {
  constructor(
    readonly failure: ThumbnailFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RetryableJobError';
  }
}

/** The job ran past its time budget. */
export class JobTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`job exceeded its ${timeoutMs} ms budget`);
    this.name = 'JobTimeoutError';
  }
}
