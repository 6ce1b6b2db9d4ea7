/** The input cannot be turned into a thumbnail (corrupt, unsupported, over a limit): retrying will not help. */
export class UnsupportedMediaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnsupportedMediaError';
  }
}

/** The job ran past its time budget. */
export class JobTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`job exceeded its ${timeoutMs} ms budget`);
    this.name = 'JobTimeoutError';
  }
}
