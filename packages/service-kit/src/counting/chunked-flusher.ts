import { randomBytes } from 'node:crypto';
import { logUnlessUnavailable } from '../dependencies/dependency-failure.js';
import type { LogSink } from '../logger.js';

export interface ChunkedFlusherOptions<C> {
  /** Takes everything counted in this process since the last call (the counts leave the caller). */
  drain: () => C[];
  /** Adds one chunk to Redis, at most once per id (a retry sends the same id). */
  send: (chunkId: string, counts: C[]) => Promise<void>;
  flushMs: number;
  logger: LogSink;
  /** Names the counts in the log, e.g. "visit counts". */
  what: string;
}

/** Entries per Redis call: keeps each script short, so Redis is never blocked for long. */
const FLUSH_CHUNK = 1_000;

/**
 * The middle step of counting on a hot path (count in process → flush to Redis → move to MySQL):
 * every `flushMs` what was counted goes to Redis, one call per chunk of 1,000. A chunk that fails is
 * kept with its id and sent again until Redis takes it, so it is added once; what is in memory
 * when the process dies without SIGTERM is lost (at most `flushMs` of counts while Redis answers).
 */
export class ChunkedFlusher<C> {
  /** Chunks that failed, kept with their ids for the retry. */
  private unsent: Array<{ id: string; counts: C[] }> = [];
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChunkedFlusherOptions<C>) {}

  /** Counts drained but not in Redis yet (waiting for a retry). */
  get waiting(): readonly C[] {
    return this.unsent.flatMap((chunk) => chunk.counts);
  }

  /** Sends what is counted (and what failed before) to Redis; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    const counts = this.options.drain();
    const run = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
    for (let i = 0; i < counts.length; i += FLUSH_CHUNK)
      this.unsent.push({ id: `${run}-${i / FLUSH_CHUNK}`, counts: counts.slice(i, i + FLUSH_CHUNK) });
    while (this.unsent.length > 0) {
      const chunk = this.unsent[0]!;
      try {
        await this.options.send(chunk.id, chunk.counts);
      } catch (error) {
        logUnlessUnavailable(
          this.options.logger,
          `${this.options.what} could not be sent to Redis; kept for the next flush`,
        )(error);
        return;
      }
      this.unsent.shift();
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and sends what is left (at shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing;
    await this.flush();
  }
}
