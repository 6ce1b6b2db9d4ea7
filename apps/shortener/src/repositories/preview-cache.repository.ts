import { LocalLru } from '@pawlink/service-kit';
import type { ShortUrl } from '../db/entities/short-url.entity.js';

export interface PreviewCacheOptions {
  /** Most entries held; 0 turns the cache off. */
  size: number;
  /** Longest an entry is trusted; bounds staleness if an announcement is ever lost. */
  ttlMs: number;
  /** The source of truth, asked on a miss. */
  load(code: string): Promise<ShortUrl | null>;
  now?: () => number;
}

/**
 * The rows behind preview pages, in process: a preview served again does not ask MySQL. Edits and
 * deletes drop the entry here (the service) and on every other instance (the redirect cache's
 * announcements, wired by the container). Unknown codes are not remembered, so a code created on
 * another instance has its preview at once; what made-up codes cost is bounded by the per-IP lookup
 * limit instead.
 */
export class PreviewCacheRepository {
  private readonly local: LocalLru<ShortUrl>;

  constructor(private readonly options: PreviewCacheOptions) {
    this.local = new LocalLru(options.size, options.ttlMs, options.now);
  }

  /** Whether the preview of `code` is answered from memory (no I/O). */
  has(code: string): boolean {
    return this.local.has(code);
  }

  /** The row behind `code`; null when no entry has it. */
  async get(code: string): Promise<ShortUrl | null> {
    const hit = this.local.get(code);
    if (hit !== undefined) return hit;
    const generation = this.local.generation;
    const row = await this.options.load(code);
    // A maxVisits entry's count moves with every visit: its preview always reads it again.
    if (row !== null && row.maxVisits === null) this.local.set(code, row, generation);
    return row;
  }

  evict(code: string): void {
    this.local.delete(code);
  }

  clear(): void {
    this.local.clear();
  }
}
