import type { LogSink } from '@pawlink/service-kit/logger';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { isHttpUrl, normalizePost, staticFileUrl, type BoardPost, type RawBoardPost } from './board-post.js';
import { BoardRateLimiter, type BoardRequester, type SlotRefusal } from './board-rate-limiter.js';
import { BOARD_DEFAULTS } from './board.defaults.js';
import { BoardShareUsedError, BoardUnavailableError } from './board.errors.js';

export interface BoardClientOptions {
  /** The board's JSON API, e.g. `https://e621.net` (BOARD_URL). */
  baseUrl: string;
  /** Where files live when a post hides `file.url` (BOARD_STATIC_URL). */
  staticUrl: string;
  /** Sent on every request; the board asks for a descriptive one (BOARD_USER_AGENT). */
  userAgent: string;
  /** Holds the shared rate-limit slot and the id→md5 cache. */
  redis: RedisClient;
  /** REDIS_PREFIX; keys are `<prefix>board:ratelimit` and `<prefix>board:id:<id>`. */
  redisPrefix: string;
  /** Across every process sharing Redis and the prefix. Default: BOARD_DEFAULTS (BOARD_REQUESTS_PER_SECOND). */
  requestsPerSecond?: number;
  /** Per attempt, headers and body. Default: BOARD_DEFAULTS (BOARD_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Extra attempts after the first on 5xx, 429, network errors and timeouts. Default: BOARD_DEFAULTS (BOARD_RETRIES). */
  retries?: number;
  /** First backoff step; doubles per attempt, with jitter. Default 500. */
  retryBaseMs?: number;
  /**
   * Longest wait for a rate-limit slot; when the shared budget is booked further ahead than this,
   * the call fails at once with BoardUnavailableError. Default: wait as long as it takes (workers);
   * the thumbs API sets it so a burst of post ids cannot hold HTTP requests for minutes.
   */
  maxSlotWaitMs?: number;
  /** A Retry-After longer than this makes the client give up instead of waiting. Default 30 000. */
  maxRetryAfterMs?: number;
  /** Largest JSON answer read; a bigger one is refused without retries. Default 1 MiB (a post is a few KB). */
  maxBodyBytes?: number;
  /** How long an id→md5 answer stays cached. Default 86 400. */
  cacheTtlSeconds?: number;
  /** How long "no such post id" stays cached, so unknown ids do not spend the board budget. Default 60; 0 disables. */
  negativeCacheTtlSeconds?: number;
  fetch?: typeof fetch;
  /** Retries and give-ups are logged here. */
  logger?: LogSink;
}

/** Who a lookup is made for. */
export interface BoardLookupOptions {
  /**
   * The requesters (API key, client IP) this lookup is made for, each with its share of the
   * budget; the lookup fails at once with BoardShareUsedError when one of them already holds
   * its share of the slots booked ahead. None (workers): no share applies.
   */
  requesters?: readonly BoardRequester[];
}

/** The image board's JSON API (e621-compatible), rate limited across processes. */
export interface BoardClient {
  /** `GET /posts/<id>.json`; null when the board has no such post. */
  getPostById(id: number, options?: BoardLookupOptions): Promise<BoardPost | null>;
  /** `GET /posts.json?tags=md5:<md5>`; null when no post has that file. */
  getPostByMd5(md5: string, options?: BoardLookupOptions): Promise<BoardPost | null>;
  /** The md5 of post `id` (cached in Redis), or null when the board has no such post. */
  resolveMd5(id: number, options?: BoardLookupOptions): Promise<string | null>;
  /** The post's file URL: its own, or the static-host layout when the board hid it. */
  fileUrl(post: { md5: string; ext: string; url?: string | null }): string;
}

const MD5 = /^[0-9a-f]{32}$/;
const NEGATIVE = '-';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After as seconds or an HTTP date, in ms; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * The body as text, refusing more than `maxBytes` (by Content-Length up front, and while reading,
 * since the header may be missing or lie): a broken or hostile board must not fill our memory.
 */
async function readCapped(response: Response, maxBytes: number, url: string): Promise<string> {
  const tooBig = (): BoardUnavailableError =>
    new BoardUnavailableError(`board answer for ${url} is over ${maxBytes} bytes`, response.status);
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooBig();
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new Retryable(`board answer broke off: ${(error as Error).message}`, response.status, null, {
        cause: error,
      });
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A refused reservation as the error callers see; the message is for logs only. */
function refused(refusal: SlotRefusal): BoardShareUsedError | BoardUnavailableError {
  return refusal.reason === 'share'
    ? new BoardShareUsedError(
        `requester ${refusal.requester.id} already holds its share of ${refusal.requester.maxHeldSlots} board request slot(s)`,
        refusal.requester.id,
        refusal.retryAfterMs,
      )
    : new BoardUnavailableError('board request budget is booked further ahead than this caller waits');
}

class Retryable extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterMs: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function createBoardClient(options: BoardClientOptions): BoardClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const staticUrl = options.staticUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? BOARD_DEFAULTS.timeoutMs;
  const retries = options.retries ?? BOARD_DEFAULTS.retries;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
  const cacheTtlSeconds = options.cacheTtlSeconds ?? 86_400;
  const negativeCacheTtlSeconds = options.negativeCacheTtlSeconds ?? 60;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const doFetch = options.fetch ?? fetch;
  const { redis, redisPrefix, logger } = options;
  const limiter = new BoardRateLimiter(
    redis,
    `${redisPrefix}board:ratelimit`,
    options.requestsPerSecond ?? BOARD_DEFAULTS.requestsPerSecond,
  );
  const idKey = (id: number): string => `${redisPrefix}board:id:${id}`;

  const maxSlotWaitMs = options.maxSlotWaitMs ?? Infinity;

  async function attempt(url: string, requesters: readonly BoardRequester[]): Promise<unknown> {
    const refusal = await limiter.acquireFor(requesters, maxSlotWaitMs);
    if (refusal) throw refused(refusal);
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: { 'User-Agent': options.userAgent, Accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'follow',
      });
    } catch (error) {
      throw new Retryable(`board request failed: ${(error as Error).message}`, null, null, { cause: error });
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel();
      throw new Retryable(
        `board answered ${response.status}`,
        response.status,
        parseRetryAfter(response.headers.get('retry-after')),
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new BoardUnavailableError(`board answered ${response.status} for ${url}`, response.status);
    }
    const text = await readCapped(response, maxBodyBytes, url);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new Retryable(`board sent an unreadable body: ${(error as Error).message}`, response.status, null, {
        cause: error,
      });
    }
  }

  // While the board is known to be unavailable, failures are not logged again: one line when it
  // goes, one when it answers again, however many lookups fail in between.
  let unavailable = false;

  /** JSON of a GET, or null on 404. Retries only what may succeed later. */
  async function getJson(path: string, requesters: readonly BoardRequester[] = []): Promise<unknown> {
    const url = `${baseUrl}${path}`;
    for (let tryNumber = 0; ; tryNumber++) {
      try {
        const body = await attempt(url, requesters);
        if (unavailable) {
          unavailable = false;
          logger?.info('board available again', { url });
        }
        return body;
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        const backoff = retryBaseMs * 2 ** tryNumber * (0.5 + Math.random());
        const waitMs = Math.max(backoff, error.retryAfterMs ?? 0);
        if (tryNumber >= retries || (error.retryAfterMs ?? 0) > maxRetryAfterMs) {
          if (!unavailable)
            logger?.warn('board unavailable', {
              url,
              attempts: tryNumber + 1,
              status: error.status,
              error: error.message,
            });
          unavailable = true;
          throw new BoardUnavailableError(
            `board unavailable after ${tryNumber + 1} attempt(s): ${error.message}`,
            error.status,
            { cause: error },
          );
        }
        if (!unavailable)
          logger?.warn('board request will be retried', {
            url,
            attempt: tryNumber + 1,
            status: error.status,
            waitMs: Math.round(waitMs),
            error: error.message,
          });
        await sleep(waitMs);
      }
    }
  }

  async function getPostById(id: number, lookup: BoardLookupOptions = {}): Promise<BoardPost | null> {
    if (!Number.isSafeInteger(id) || id < 0) return null;
    const body = (await getJson(`/posts/${id}.json`, lookup.requesters)) as { post?: RawBoardPost } | null;
    const post = body === null ? null : normalizePost(body.post, staticUrl);
    if (post) await redis.set(idKey(id), post.md5, 'EX', cacheTtlSeconds);
    return post;
  }

  async function getPostByMd5(md5: string, lookup: BoardLookupOptions = {}): Promise<BoardPost | null> {
    const wanted = md5.toLowerCase();
    if (!MD5.test(wanted)) return null;
    const body = (await getJson(`/posts.json?tags=md5:${wanted}`, lookup.requesters)) as {
      posts?: RawBoardPost[];
    } | null;
    const posts = Array.isArray(body?.posts) ? body.posts : [];
    for (const raw of posts) {
      const post = normalizePost(raw, staticUrl);
      if (post?.md5 === wanted) return post;
    }
    return null;
  }

  async function resolveMd5(id: number, lookup: BoardLookupOptions = {}): Promise<string | null> {
    if (!Number.isSafeInteger(id) || id < 0) return null;
    const cached = await redis.get(idKey(id));
    if (cached === NEGATIVE) return null;
    if (cached !== null) return cached;
    const post = await getPostById(id, lookup);
    if (!post && negativeCacheTtlSeconds > 0) await redis.set(idKey(id), NEGATIVE, 'EX', negativeCacheTtlSeconds);
    return post?.md5 ?? null;
  }

  return {
    getPostById,
    getPostByMd5,
    resolveMd5,
    fileUrl: (post) => (isHttpUrl(post.url) ? post.url : staticFileUrl(staticUrl, post.md5, post.ext)),
  };
}
