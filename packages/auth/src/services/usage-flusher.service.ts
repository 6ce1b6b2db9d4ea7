import { randomBytes } from 'node:crypto';
import { logUnlessUnavailable, type Logger } from '@pawlink/service-kit';
import type { PendingUsageRepository } from '../repositories/pending-usage.repository.js';
import type { UsageCount } from './usage-count.js';
import type { UsageTally } from './usage-tally.js';

export interface UsageFlusherDeps {
  tally: UsageTally;
  pending: Pick<PendingUsageRepository, 'add'>;
  flushMs: number;
  logger: Logger;
}

/** Entries per Redis call: keeps each script short, so Redis is never blocked for long. */
const FLUSH_CHUNK = 1_000;

/**
 * Sends the tally to Redis every `flushMs`, one script call per chunk. A chunk that fails is
 * retried with the same id (applied at most once) until Redis takes it; what is in memory when the
 * process dies without SIGTERM is lost (at most `flushMs` of its requests while Redis answers).
 */
export class UsageFlusherService {
  /** Chunks that failed, kept with their ids for the retry. */
  private unsent: Array<{ id: string; counts: UsageCount[] }> = [];
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: UsageFlusherDeps) {}

  /** Counts of `keyId` still in this process (tallied, or waiting for a retry). */
  unflushedOf(keyId: number): UsageCount[] {
    return [...this.deps.tally.ofKey(keyId), ...this.unsent.flatMap((chunk) => chunk.counts.filter((c) => c.keyId === keyId))];
  }

  /** Sends what is tallied (and what failed before) to Redis; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    const counts = this.deps.tally.drain();
    const run = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
    for (let i = 0; i < counts.length; i += FLUSH_CHUNK) this.unsent.push({ id: `${run}-${i / FLUSH_CHUNK}`, counts: counts.slice(i, i + FLUSH_CHUNK) });
    while (this.unsent.length > 0) {
      const chunk = this.unsent[0]!;
      try {
        await this.deps.pending.add(chunk.id, chunk.counts);
      } catch (error) {
        logUnlessUnavailable(this.deps.logger, 'key usage could not be sent to Redis; kept for the next flush')(error);
        return;
      }
      this.unsent.shift();
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.deps.flushMs);
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
