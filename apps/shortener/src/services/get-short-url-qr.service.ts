import type { QrFormat } from '@pawlink/contracts';
import type { PreviewCacheRepository } from '../repositories/preview-cache.repository.js';
import type { QrImageRepository } from '../repositories/qr-image.repository.js';
import { assertQrFits, qrModulePng, qrSvg } from '../domain/qr-code.rules.js';
import { isWellFormedCode } from '../domain/short-code.rules.js';
import { fullUrlOf } from '../domain/short-url-record.rules.js';

export interface GetShortUrlQrDeps {
  /** The entries behind previews, in process in front of MySQL: a QR code needs only to know the code exists. */
  entries: Pick<PreviewCacheRepository, 'has' | 'get'>;
  images: Pick<QrImageRepository, 'scalePng'>;
  /** SHORTENER_URL: the code's `fullURL` is built from it, never from the request. */
  baseUrl: string;
}

/** What `GET /:code/qr` asks for. */
export interface ShortUrlQrRequest {
  code: string;
  format: QrFormat;
  /** PNG only: the whole image's width and height in pixels. */
  size: number;
  /** Quiet zone, in modules. */
  margin: number;
}

export type ShortUrlQr = { format: 'svg'; body: string } | { format: 'png'; body: Buffer };

/** GET /:code/qr (docs/api.md). */
export class GetShortUrlQrService {
  constructor(private readonly deps: GetShortUrlQrDeps) {}

  /** The QR code of the entry's `fullURL` (expired entries too); null when no entry has the code. */
  async qr({ code, format, size, margin }: ShortUrlQrRequest): Promise<ShortUrlQr | null> {
    const entry = await this.deps.entries.get(code);
    if (!entry) return null;
    const text = fullUrlOf(this.deps.baseUrl, entry.code);
    if (format === 'svg') return { format, body: await qrSvg(text, margin) };
    assertQrFits(text, size, margin);
    return { format, body: await this.deps.images.scalePng(await qrModulePng(text, margin), size) };
  }

  /** Whether the QR code of the path segment `code` must ask MySQL (what the lookup limit counts). */
  needsLookup(code: string): boolean {
    return isWellFormedCode(code) && !this.deps.entries.has(code);
  }
}
