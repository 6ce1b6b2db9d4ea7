import type { LogSink } from '@pawlink/service-kit/logger';
import type { ShortLinkLockRepository } from '../repositories/short-link-lock.repository.js';
import type { ShortLinksService } from './short-links.service.js';

export interface ShortLinkFillerDeps {
  links: Pick<ShortLinksService, 'fillBatch'>;
  /** One instance fills at a time; the others skip their turn. */
  lock: Pick<ShortLinkLockRepository, 'acquire' | 'release'>;
  logger: LogSink;
  /** Pause between passes while all goes well. */
  intervalMs: number;
  /** Longest pause while the shortener (or MySQL, or Redis) keeps failing; the pause doubles up to it. */
  maxBackoffMs?: number;
}

/**
 * Gives newly imported images their short link within seconds, however they were imported: every
 * `intervalMs` one pass walks the images without a link (ShortLinksService.fillBatch) until none is
 * left. While the shortener is down or refusing, passes back off and the trouble is logged once,
 * with one line again when links are made again; a 429 pauses until its Retry-After. Image
 * requests never wait on any of this: they serve `shortURL: null` until the link is stored.
 */
export class ShortLinkFiller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopping = false;
  private failures = 0;
  /** Set while in trouble, so an outage is logged once. */
  private trouble: string | null = null;

  constructor(private readonly deps: ShortLinkFillerDeps) {}

  start(): void {
    this.stopping = false;
    // One interval first: services started together (npm start) give the shortener time to listen.
    this.schedule(this.deps.intervalMs);
  }

  /** Stops scheduling and waits for the pass under way (its requests in flight finish; no new ones start). */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass now (tests, and the scheduler); resolves to the pause before the next. */
  async runPass(): Promise<number> {
    const { lock, links } = this.deps;
    try {
      if (!(await lock.acquire())) return this.deps.intervalMs;
      try {
        let after: string | null = '';
        while (after !== null && !this.stopping) {
          const batch = await links.fillBatch(after, () => this.stopping);
          if (batch.filled > 0) this.recovered();
          if (batch.stop?.kind === 'failed') return this.failed(batch.stop.reason);
          if (batch.stop?.kind === 'rate-limited') return Math.max(batch.stop.retryAfterMs, 1);
          after = batch.next;
          // Still ours for the next batch? (It expires if a batch outlives its ttl.)
          if (after !== null && !(await lock.acquire())) break;
        }
      } finally {
        await lock.release();
      }
      this.recovered();
      return this.deps.intervalMs;
    } catch (error) {
      return this.failed(`the filler could not read or store links: ${(error as Error).message}`);
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.running = this.runPass().then((next) => {
        this.running = undefined;
        this.schedule(next);
      });
    }, delayMs);
    this.timer.unref();
  }

  private failed(reason: string): number {
    this.failures++;
    if (this.trouble === null) {
      this.trouble = reason;
      this.deps.logger.warn(
        'Image short links cannot be made now; images keep shortURL null and get their link once this clears',
        { reason },
      );
    }
    return Math.min(
      this.deps.intervalMs * 2 ** Math.min(this.failures, 10),
      Math.max(this.deps.maxBackoffMs ?? 30_000, this.deps.intervalMs),
    );
  }

  private recovered(): void {
    this.failures = 0;
    if (this.trouble === null) return;
    this.deps.logger.info('Image short links are being made again', { after: this.trouble });
    this.trouble = null;
  }
}
