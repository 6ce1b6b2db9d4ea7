import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A post as a test describes it; missing fields are derived from the file bytes. */
export interface BoardPostInput {
  id: number;
  /** Defaults to the md5 of the file bytes. */
  md5?: string;
  ext: string;
  width?: number;
  height?: number;
  /** Defaults to the file's byte length. */
  size?: number;
  duration?: number | null;
  /** Answer `file.url: null`, as the board does for some posts, so clients use the static layout. */
  hideUrl?: boolean;
}

export interface FakeBoardRequest {
  /** Path and query, as received. */
  path: string;
  /** Unix ms at which the server received the request. */
  at: number;
  userAgent: string | undefined;
}

export interface FailOptions {
  /** Which requests fail: the JSON API (default), media files, or both. */
  scope?: 'api' | 'media' | 'all';
  /** Sent as Retry-After (seconds). */
  retryAfterSeconds?: number;
}

export interface FakeBoard {
  /** Base URL of the JSON API (BOARD_URL). */
  url: string;
  /** Base URL of the static host (BOARD_STATIC_URL); the same server. */
  staticUrl: string;
  /** Registers a post (and its file when bytes are given); returns it with md5 and size filled in. */
  addPost(post: BoardPostInput, fileBytes?: Buffer): Required<Omit<BoardPostInput, 'hideUrl'>> & { hideUrl: boolean };
  /** Every request received, in order. */
  requests: FakeBoardRequest[];
  /** The next `count` matching requests answer `status`. */
  failNext(status: number, count: number, options?: FailOptions): void;
  /** Delays each media response by `ms` before sending (to hold a download mid-flight). */
  setMediaDelay(ms: number): void;
  /** Delays each JSON API answer by `ms` (a board slower than its clients' timeout); 0 stops. */
  setApiDelay(ms: number): void;
  /**
   * Answers requests for exactly `pathAndQuery` (e.g. `/posts.json?tags=md5:<md5>`) with `body`
   * instead of a rendered post: a string is sent as-is (HTML, broken JSON), anything else as
   * JSON. For hostile or malformed board answers; with `headers` (e.g. a `Location` and status
   * 302, also on a file's path) for redirects.
   */
  answerRaw(
    pathAndQuery: string,
    body: unknown,
    options?: { status?: number; contentType?: string; headers?: Record<string, string> },
  ): void;
  close(): Promise<void>;
}

interface StoredPost {
  input: Required<Omit<BoardPostInput, 'hideUrl'>> & { hideUrl: boolean };
  bytes: Buffer | undefined;
}

const MIME: Record<string, string> = {
  webm: 'video/webm',
  mp4: 'video/mp4',
  gif: 'image/gif',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

const filePath = (md5: string, ext: string): string => `/data/${md5.slice(0, 2)}/${md5.slice(2, 4)}/${md5}.${ext}`;

/**
 * A local stand-in for the image board: the e621 JSON API (`/posts/<id>.json`,
 * `/posts.json?tags=md5:<md5>`) and its static host (`/data/xx/yy/<md5>.<ext>`), on `port`
 * (default 0: a free one) of `host` (default 127.0.0.1).
 */
export async function startFakeBoard(
  options: { posts?: Array<BoardPostInput & { bytes?: Buffer }>; port?: number; host?: string } = {},
): Promise<FakeBoard> {
  const byId = new Map<number, StoredPost>();
  const byMd5 = new Map<string, StoredPost>();
  const requests: FakeBoardRequest[] = [];
  const failures: Array<{ status: number; remaining: number; options: FailOptions }> = [];
  let mediaDelayMs = 0;
  let apiDelayMs = 0;
  const rawAnswers = new Map<
    string,
    { body: unknown; status: number; contentType: string | undefined; headers: Record<string, string> }
  >();
  const pendingTimers = new Set<NodeJS.Timeout>();
  let baseUrl = '';

  const render = (stored: StoredPost): Record<string, unknown> => {
    const { input } = stored;
    return {
      id: input.id,
      created_at: '2024-01-01T00:00:00.000-00:00',
      file: {
        width: input.width,
        height: input.height,
        ext: input.ext,
        size: input.size,
        md5: input.md5,
        url: input.hideUrl ? null : `${baseUrl}${filePath(input.md5, input.ext)}`,
      },
      preview: { width: 150, height: 150, url: null },
      tags: { general: [], artist: [] },
      rating: 's',
      duration: input.duration,
      flags: { deleted: false },
    };
  };

  const takeFailure = (scope: 'api' | 'media'): { status: number; options: FailOptions } | undefined => {
    const applies = (f: { options: FailOptions }): boolean => {
      const wanted = f.options.scope ?? 'api';
      return wanted === 'all' || wanted === scope;
    };
    const failure = failures.find((f) => f.remaining > 0 && applies(f));
    if (!failure) return undefined;
    failure.remaining--;
    return failure;
  };

  const json = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const later = (ms: number, run: () => void): void => {
    const timer = setTimeout(() => {
      pendingTimers.delete(timer);
      run();
    }, ms);
    pendingTimers.add(timer);
  };

  const server = http.createServer((req, res) => {
    const rawPath = req.url ?? '/';
    requests.push({ path: rawPath, at: Date.now(), userAgent: req.headers['user-agent'] });
    const url = new URL(rawPath, 'http://board.invalid');
    const isMedia = url.pathname.startsWith('/data/');
    if (!isMedia && apiDelayMs > 0) later(apiDelayMs, () => answer(req, res, rawPath, url, isMedia));
    else answer(req, res, rawPath, url, isMedia);
  });

  const answer = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    rawPath: string,
    url: URL,
    isMedia: boolean,
  ): void => {
    if (res.destroyed) return;
    const failure = takeFailure(isMedia ? 'media' : 'api');
    if (failure) {
      const headers: Record<string, string> =
        failure.options.retryAfterSeconds !== undefined
          ? { 'retry-after': String(failure.options.retryAfterSeconds) }
          : {};
      json(res, failure.status, { success: false, reason: `injected ${failure.status}` }, headers);
      return;
    }
    const rawAnswer = rawAnswers.get(rawPath);
    if (rawAnswer) {
      const text = typeof rawAnswer.body === 'string' ? rawAnswer.body : JSON.stringify(rawAnswer.body);
      const contentType =
        rawAnswer.contentType ??
        (typeof rawAnswer.body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8');
      res.writeHead(rawAnswer.status, {
        ...rawAnswer.headers,
        'content-type': contentType,
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      json(res, 405, { success: false, reason: 'method not allowed' });
      return;
    }
    const byIdMatch = /^\/posts\/(\d+)\.json$/.exec(url.pathname);
    if (byIdMatch) {
      const stored = byId.get(Number(byIdMatch[1]));
      if (stored) json(res, 200, { post: render(stored) });
      else json(res, 404, { success: false, reason: 'not found' });
      return;
    }
    if (url.pathname === '/posts.json') {
      const tags = (url.searchParams.get('tags') ?? '').split(/\s+/);
      const md5Tag = tags.find((tag) => tag.startsWith('md5:'));
      const stored = md5Tag ? byMd5.get(md5Tag.slice(4).toLowerCase()) : undefined;
      json(res, 200, { posts: stored ? [render(stored)] : [] });
      return;
    }
    const mediaMatch = /^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{32})\.([a-z0-9]+)$/.exec(url.pathname);
    const stored = mediaMatch ? byMd5.get(mediaMatch[1] ?? '') : undefined;
    if (!stored?.bytes || stored.input.ext !== mediaMatch?.[2]) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const bytes = stored.bytes;
    const send = (): void => {
      res.writeHead(200, {
        'content-type': MIME[stored.input.ext] ?? 'application/octet-stream',
        'content-length': bytes.length,
      });
      res.end(req.method === 'HEAD' ? undefined : bytes);
    };
    if (mediaDelayMs > 0) later(mediaDelayMs, send);
    else send();
  };

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;

  const addPost: FakeBoard['addPost'] = (post, fileBytes) => {
    const md5 = (
      post.md5 ?? (fileBytes ? createHash('md5').update(fileBytes).digest('hex') : undefined)
    )?.toLowerCase();
    if (!md5) throw new Error('addPost needs an md5 or the file bytes');
    const input = {
      id: post.id,
      md5,
      ext: post.ext,
      width: post.width ?? 0,
      height: post.height ?? 0,
      size: post.size ?? fileBytes?.length ?? 0,
      duration: post.duration ?? null,
      hideUrl: post.hideUrl ?? false,
    };
    const stored: StoredPost = { input, bytes: fileBytes };
    byId.set(input.id, stored);
    byMd5.set(md5, stored);
    return input;
  };

  for (const post of options.posts ?? []) addPost(post, post.bytes);

  return {
    url: baseUrl,
    staticUrl: baseUrl,
    addPost,
    requests,
    failNext(status, count, failOptions = {}) {
      failures.push({ status, remaining: count, options: failOptions });
    },
    setMediaDelay(ms) {
      mediaDelayMs = ms;
    },
    setApiDelay(ms) {
      apiDelayMs = ms;
    },
    answerRaw(pathAndQuery, body, rawOptions = {}) {
      rawAnswers.set(pathAndQuery, {
        body,
        status: rawOptions.status ?? 200,
        contentType: rawOptions.contentType,
        headers: rawOptions.headers ?? {},
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        pendingTimers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
