import { imageFileName } from '@pawlink/contracts';
import type { ImageShortUrlRepository } from '../repositories/image-short-url.repository.js';
import type { RecordCacheRepository } from '../repositories/record-cache.repository.js';
import type { ShortLinkClient } from '../repositories/short-link.repository.js';

/** Why a batch stopped before its end: the shortener asked to wait, or could not make links. */
export type ShortLinkStop = { kind: 'rate-limited'; retryAfterMs: number } | { kind: 'failed'; reason: string };

export interface ShortLinkBatch {
  /** Links stored by this batch. */
  filled: number;
  /** Where the next batch starts (after this id); null when this batch reached the last image without a link. */
  next: string | null;
  stop?: ShortLinkStop;
}

export interface BackfillResult {
  /** Images without a link when the backfill began. */
  missing: number;
  filled: number;
  /** Images still without a link at the end (imports made meanwhile count too). */
  remaining: number;
  /** Set when the shortener could not make links: the backfill stopped there. */
  failure?: string;
}

export interface ShortLinksServiceDeps {
  shortUrls: Pick<ImageShortUrlRepository, 'missing' | 'countMissing' | 'fill'>;
  records: Pick<RecordCacheRepository, 'setShortUrls'>;
  /** null when SHORTENER_KEY is not set. */
  shortener: ShortLinkClient | null;
  imagesMediaUrl: string;
  /** Create requests in flight at once. */
  concurrency: number;
  /** Images read per batch. */
  batchSize?: number;
}

/**
 * Every image gets a short link on the shortener that targets its public URL (the record's `url`).
 * Links are made after the import, never on a request's path: images without one are found in
 * MySQL, their links created (the shortener shares non-editable entries per URL, so a repeat is
 * harmless), then stored in MySQL and in the cached records.
 */
export class ShortLinksService {
  private readonly batchSize: number;

  constructor(private readonly deps: ShortLinksServiceDeps) {
    this.batchSize = deps.batchSize ?? 100;
  }

  /** Whether a shortener key is configured at all. */
  get configured(): boolean {
    return this.deps.shortener !== null;
  }

  countMissing(): Promise<number> {
    return this.deps.shortUrls.countMissing();
  }

  /**
   * One batch of images without a link, after `afterId`. The first 429 or failure stops new
   * requests (those in flight finish and their links are kept), as does `shouldStop()`; a stopped
   * batch's `next` is where it began, so the next call retries what is left.
   */
  async fillBatch(afterId: string, shouldStop: () => boolean = () => false): Promise<ShortLinkBatch> {
    const { shortener } = this.deps;
    if (shortener === null)
      return { filled: 0, next: afterId, stop: { kind: 'failed', reason: 'SHORTENER_KEY is not set' } };
    const page = await this.deps.shortUrls.missing(afterId, this.batchSize);
    const links = new Map<string, string>();
    let stop: ShortLinkStop | undefined;
    let nextIndex = 0;
    const worker = async (): Promise<void> => {
      while (stop === undefined && !shouldStop() && nextIndex < page.length) {
        const image = page[nextIndex++]!;
        const answer = await shortener.create(`${this.deps.imagesMediaUrl}/${imageFileName(image.id, image.ext)}`);
        if (answer.kind === 'created') links.set(image.id, answer.shortUrl);
        else
          stop ??=
            answer.kind === 'rate-limited'
              ? { kind: 'rate-limited', retryAfterMs: answer.retryAfterMs }
              : { kind: 'failed', reason: answer.reason };
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.deps.concurrency, page.length) }, worker));

    const stored = await this.deps.shortUrls.fill(links);
    await this.deps.records.setShortUrls(new Map(stored.map((id) => [id, links.get(id)!])));
    const interrupted = stop !== undefined || nextIndex < page.length;
    const next = interrupted ? afterId : page.length < this.batchSize ? null : page[page.length - 1]!.id;
    return { filled: stored.length, next, ...(stop ? { stop } : {}) };
  }

  /**
   * Every image without a link, batch after batch, waiting out 429s; stops at the first failure.
   * `onProgress` hears the running count after each batch.
   */
  async backfill(options: {
    sleep: (ms: number) => Promise<void>;
    onProgress?: (filled: number, missing: number) => void;
  }): Promise<BackfillResult> {
    const missing = await this.countMissing();
    let filled = 0;
    let after: string | null = '';
    let failure: string | undefined;
    while (after !== null) {
      const batch = await this.fillBatch(after);
      filled += batch.filled;
      options.onProgress?.(filled, missing);
      if (batch.stop?.kind === 'failed') {
        failure = batch.stop.reason;
        break;
      }
      if (batch.stop?.kind === 'rate-limited') await options.sleep(batch.stop.retryAfterMs);
      after = batch.next;
    }
    return { missing, filled, remaining: await this.countMissing(), ...(failure === undefined ? {} : { failure }) };
  }
}
