import { QR_MARGIN_DEFAULT, type ShortUrlRecord } from '@pawlink/contracts';
import { LocalLru } from '@pawlink/service-kit';
import type { PreviewCacheRepository } from '../repositories/preview-cache.repository.js';
import { expiryOf } from '../domain/expiry.rules.js';
import { qrSvg } from '../domain/qr-code.rules.js';
import { isWellFormedCode } from '../domain/short-code.rules.js';
import { expiredLinkOf, toRecord, type ExpiredLink } from '../domain/short-url-record.rules.js';
import type { VisitStatsService } from './visit-stats.service.js';

/** What the preview page shows: the record, when an edit last changed the destination, the visits and the link's QR code. */
export interface ShortUrlPreview {
  record: ShortUrlRecord;
  urlChangedAt: string | null;
  visits: number;
  /** The QR code of `record.fullURL` as an SVG element (the one `GET /:code/qr` serves). */
  qrSvg: string;
}

/** A preview, or why there is none. */
export type PreviewOutcome =
  { kind: 'preview'; preview: ShortUrlPreview } | { kind: 'expired'; expired: ExpiredLink } | { kind: 'unknown' };

export interface PreviewShortUrlDeps {
  /** The rows behind previews, in process in front of MySQL. */
  previews: Pick<PreviewCacheRepository, 'has' | 'get'>;
  visitStats: Pick<VisitStatsService, 'previewTotal'>;
  /** SHORTENER_URL: `fullURL` is built from it, never from the request. */
  baseUrl: string;
  clock: () => Date;
}

/**
 * QR codes kept for previews: drawing one costs ~0.5 ms, about ten times the rest of a preview held
 * in memory, and a code's QR code never changes (it encodes `fullURL`, not the target).
 */
const PREVIEW_QR_CACHE_SIZE = 1_000;
const PREVIEW_QR_TTL_MS = 3_600_000;

/** GET /:code+ (docs/api.md). */
export class PreviewShortUrlService {
  private readonly qrSvgs = new LocalLru<string>(PREVIEW_QR_CACHE_SIZE, PREVIEW_QR_TTL_MS);

  constructor(private readonly deps: PreviewShortUrlDeps) {}

  /**
   * What the preview page of `code` shows, from memory when it was shown before (`maxVisits`
   * entries are always read again: their count moves with every visit).
   */
  async preview(code: string): Promise<PreviewOutcome> {
    const entry = await this.deps.previews.get(code);
    if (!entry) return { kind: 'unknown' };
    const expired = expiryOf(entry, this.deps.clock());
    if (expired) return { kind: 'expired', expired: expiredLinkOf(entry, expired, this.deps.baseUrl) };
    const visits = await this.deps.visitStats.previewTotal(entry.code, entry.pos);
    // A visitor of a protected link's preview never learns its target.
    const record = toRecord(entry, this.deps.baseUrl, undefined, { hideTarget: true });
    return {
      kind: 'preview',
      preview: {
        record,
        urlChangedAt: entry.urlChangedAt?.toISOString() ?? null,
        visits,
        qrSvg: await this.qrSvgOf(record.fullURL),
      },
    };
  }

  private async qrSvgOf(fullUrl: string): Promise<string> {
    const held = this.qrSvgs.get(fullUrl);
    if (held !== undefined) return held;
    const svg = await qrSvg(fullUrl, QR_MARGIN_DEFAULT);
    this.qrSvgs.set(fullUrl, svg);
    return svg;
  }

  /**
   * Whether the preview of the path segment `code` must ask MySQL (what the lookup limit counts):
   * false for a malformed code (unknown without a lookup) and for one held in memory.
   */
  needsLookup(code: string): boolean {
    return isWellFormedCode(code) && !this.deps.previews.has(code);
  }
}
