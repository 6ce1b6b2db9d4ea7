import { URL_MAX_LENGTH } from '@pawlink/contracts';

/** What the shortener said to one create. */
export type ShortLinkAnswer =
  | { kind: 'created'; shortUrl: string }
  /** 429: ask again after `retryAfterMs`. */
  | { kind: 'rate-limited'; retryAfterMs: number }
  /**
   * Anything else: unreachable, timed out, 5xx, read-only, the key refused, the image URL refused,
   * an answer that is no record. `reason` names the trouble, not the image, so one outage has one
   * reason however many images it stops.
   */
  | { kind: 'failed'; reason: string };

/** Creates short links on the shortener; the filler and bin/admin depend on this, tests on a stand-in. */
export interface ShortLinkClient {
  create(targetUrl: string): Promise<ShortLinkAnswer>;
}

export interface ShortLinkRepositoryOptions {
  /** The shortener's base URL (SHORTENER_API_URL or SHORTENER_URL), without a trailing slash. */
  apiUrl: string;
  /** A key with the `shortener` flag. */
  key: string;
  timeoutMs: number;
}

/** Retry-After is seconds or an HTTP date; absent or odd values mean one second. Capped at an hour. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  const value = header?.trim() ?? '';
  let ms = 1000;
  if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
  else if (value !== '' && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - now;
  return Math.min(Math.max(ms, 0), 3_600_000);
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > URL_MAX_LENGTH) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The shortener's failure body as it is worth logging: status, code and message. */
function describeFailure(status: number, body: unknown): string {
  const { code, error } = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown;
    error?: unknown;
  };
  const detail = [typeof code === 'number' ? `code ${code}` : '', typeof error === 'string' ? error.slice(0, 200) : '']
    .filter((s) => s !== '')
    .join(': ');
  return `the shortener answered ${status}${detail === '' ? '' : ` (${detail})`}`;
}

/**
 * The shortener's public HTTP API as images uses it: `POST /create?editable=false` with `{url}`.
 * Non-editable entries are shared per URL, so asking again for the same image returns the same
 * link (200) instead of a new one: every call is safe to repeat.
 */
export class ShortLinkRepository implements ShortLinkClient {
  private readonly endpoint: string;

  constructor(private readonly options: ShortLinkRepositoryOptions) {
    this.endpoint = `${options.apiUrl}/create?editable=false`;
  }

  async create(targetUrl: string): Promise<ShortLinkAnswer> {
    let response: Response;
    let body: unknown;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { authorization: this.options.key, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ url: targetUrl }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const text = await response.text();
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      const why =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${this.options.timeoutMs} ms`
          : typeof cause?.code === 'string'
            ? cause.code
            : typeof cause?.message === 'string'
              ? cause.message
              : (error as Error).message;
      return { kind: 'failed', reason: `the shortener is unreachable (${why})` };
    }
    if (response.status === 429)
      return { kind: 'rate-limited', retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
    if (response.status !== 200 && response.status !== 201)
      return { kind: 'failed', reason: describeFailure(response.status, body) };
    const fullUrl = (body as { success?: unknown; data?: { fullURL?: unknown } } | undefined)?.data?.fullURL;
    if ((body as { success?: unknown } | undefined)?.success !== true || !isHttpUrl(fullUrl)) {
      return {
        kind: 'failed',
        reason: `the shortener gave an answer that is no short link record (${response.status})`,
      };
    }
    return { kind: 'created', shortUrl: fullUrl };
  }
}
