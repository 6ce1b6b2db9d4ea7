import { ChunkedFlusher, type Logger } from '@pawlink/service-kit';
import type { PendingUsageRepository } from '../repositories/pending-usage.repository.js';
import type { UsageCount } from './usage-count.js';
import type { UsageTally } from './usage-tally.js';

export interface UsageFlusherDeps {
  tally: UsageTally;
  pending: Pick<PendingUsageRepository, 'add'>;
  flushMs: number;
  logger: Logger;
}

/**
 * Sends the tally to Redis every `flushMs` with service-kit's ChunkedFlusher, as the shortener
 * sends its visit counts: a failed chunk is retried and added once; at most `flushMs` of requests
 * are lost when the process dies without SIGTERM.
 */
export class UsageFlusherService {
  private readonly flusher: ChunkedFlusher<UsageCount>;

  constructor(private readonly deps: UsageFlusherDeps) {
    this.flusher = new ChunkedFlusher({
      drain: () => deps.tally.drain(),
      send: (chunkId, counts) => deps.pending.add(chunkId, counts),
      flushMs: deps.flushMs,
      logger: deps.logger,
      what: 'key usage',
    });
  }

  /** Counts of `keyId` still in this process (tallied, or waiting for a retry). */
  unflushedOf(keyId: number): UsageCount[] {
    return [...this.deps.tally.ofKey(keyId), ...this.flusher.waiting.filter((count) => count.keyId === keyId)];
  }

  /** Sends what is tallied (and what failed before) to Redis; one flush at a time. */
  flush(): Promise<void> {
    return this.flusher.flush();
  }

  start(): void {
    this.flusher.start();
  }

  /** Stops the timer and sends what is left (at shutdown). */
  stop(): Promise<void> {
    return this.flusher.stop();
  }
}
