import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BoardUnavailableError, createBoardClient, type BoardClientOptions } from '../src/index.js';
import { makePng, startFakeBoard, type FakeBoard } from '../src/testing/index.js';

const USER_AGENT = 'PawlinkTest/1.0 (board client tests)';

let ctx: TestContext;
let redis: Redis;
let board: FakeBoard;
let png: Buffer;
let nextId = 1000;

const client = (overrides: Partial<BoardClientOptions> = {}) =>
  createBoardClient({
    baseUrl: board.url,
    staticUrl: board.staticUrl,
    userAgent: USER_AGENT,
    redis,
    redisPrefix: ctx.redisPrefix,
    requestsPerSecond: 200,
    retryBaseMs: 5,
    ...overrides,
  });

const requestsSince = (start: number) => board.requests.slice(start);

beforeAll(async () => {
  ctx = await createTestContext('board');
  redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  board = await startFakeBoard();
  png = await makePng(40, 30);
});

afterAll(async () => {
  await board.close();
  redis.disconnect();
  await ctx.cleanup();
});

describe('board client', () => {
  it('finds a post by id and by md5 (any case), normalised, with the User-Agent on every request', async () => {
    const added = board.addPost({ id: nextId++, ext: 'png', width: 40, height: 30, duration: null }, png);
    const start = board.requests.length;
    const byId = await client().getPostById(added.id);
    expect(byId).toEqual({
      id: added.id,
      md5: added.md5,
      ext: 'png',
      width: 40,
      height: 30,
      size: png.length,
      duration: null,
      url: `${board.staticUrl}/data/${added.md5.slice(0, 2)}/${added.md5.slice(2, 4)}/${added.md5}.png`,
    });
    const byMd5 = await client().getPostByMd5(added.md5.toUpperCase());
    expect(byMd5).toEqual(byId);
    const seen = requestsSince(start);
    expect(seen.map((r) => r.path)).toEqual([`/posts/${added.id}.json`, `/posts.json?tags=md5:${added.md5}`]);
    expect(seen.every((r) => r.userAgent === USER_AGENT)).toBe(true);
  });

  it('answers null for an unknown id (404) without retrying, and for an unknown md5', async () => {
    const start = board.requests.length;
    await expect(client().getPostById(987654321)).resolves.toBeNull();
    await expect(client().getPostByMd5('0123456789abcdef0123456789abcdef')).resolves.toBeNull();
    expect(requestsSince(start)).toHaveLength(2);
  });

  it('does not ask the board about a malformed md5', async () => {
    const start = board.requests.length;
    await expect(client().getPostByMd5('not-an-md5')).resolves.toBeNull();
    expect(requestsSince(start)).toHaveLength(0);
  });

  it('retries a 503 and then succeeds', async () => {
    const added = board.addPost({ id: nextId++, ext: 'png' }, png);
    board.failNext(503, 2);
    const start = board.requests.length;
    const post = await client({ retries: 3 }).getPostById(added.id);
    expect(post?.md5).toBe(added.md5);
    expect(requestsSince(start).map((r) => r.path)).toEqual(Array(3).fill(`/posts/${added.id}.json`));
  });

  it('waits at least Retry-After on a 429', async () => {
    const added = board.addPost({ id: nextId++, ext: 'png' }, png);
    board.failNext(429, 1, { retryAfterSeconds: 1 });
    const start = board.requests.length;
    expect((await client().getPostById(added.id))?.md5).toBe(added.md5);
    const [first, second] = requestsSince(start);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up with BoardUnavailableError after the configured retries', async () => {
    board.failNext(500, 3);
    const start = board.requests.length;
    const error = await client({ retries: 2 })
      .getPostById(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BoardUnavailableError);
    expect((error as BoardUnavailableError).status).toBe(500);
    expect(requestsSince(start)).toHaveLength(3);
  });

  it('never retries another 4xx', async () => {
    board.failNext(403, 1);
    const start = board.requests.length;
    const error = await client()
      .getPostById(1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BoardUnavailableError);
    expect((error as BoardUnavailableError).status).toBe(403);
    expect(requestsSince(start)).toHaveLength(1);
  });

  it('retries network errors and timeouts, then reports the board unavailable', async () => {
    const hanging = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    try {
      await expect(client({ baseUrl: hangingUrl, timeoutMs: 150, retries: 1 }).getPostById(1)).rejects.toBeInstanceOf(
        BoardUnavailableError,
      );
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
    await expect(client({ baseUrl: hangingUrl, retries: 1 }).getPostById(1)).rejects.toBeInstanceOf(
      BoardUnavailableError,
    );
  });

  it('caches id → md5 in Redis so a second resolve does not reach the board', async () => {
    const added = board.addPost({ id: nextId++, ext: 'png' }, png);
    const start = board.requests.length;
    expect(await client().resolveMd5(added.id)).toBe(added.md5);
    expect(await client().resolveMd5(added.id)).toBe(added.md5);
    expect(requestsSince(start)).toHaveLength(1);
    expect(await redis.get(`${ctx.redisPrefix}board:id:${added.id}`)).toBe(added.md5);
    expect(await redis.ttl(`${ctx.redisPrefix}board:id:${added.id}`)).toBeGreaterThan(0);
  });

  it('remembers an unknown id briefly', async () => {
    const start = board.requests.length;
    expect(await client().resolveMd5(55555555)).toBeNull();
    expect(await client().resolveMd5(55555555)).toBeNull();
    expect(requestsSince(start)).toHaveLength(1);
  });

  it('builds the static URL when the board hides file.url, and the fake board serves the file there', async () => {
    const added = board.addPost({ id: nextId++, ext: 'png', hideUrl: true }, png);
    const c = client();
    const post = await c.getPostById(added.id);
    const expected = `${board.staticUrl}/data/${added.md5.slice(0, 2)}/${added.md5.slice(2, 4)}/${added.md5}.png`;
    expect(post?.url).toBe(expected);
    expect(c.fileUrl({ md5: added.md5, ext: 'png', url: null })).toBe(expected);
    expect(c.fileUrl({ md5: added.md5, ext: 'png', url: 'https://elsewhere.example/x.png' })).toBe(
      'https://elsewhere.example/x.png',
    );
    const bytes = Buffer.from(await (await fetch(expected)).arrayBuffer());
    expect(createHash('md5').update(bytes).digest('hex')).toBe(added.md5);
  });

  it('refuses an oversized answer without retrying, with or without Content-Length', async () => {
    const c = client({ maxBodyBytes: 2000 });
    const big = { post: { id: 31337, file: { md5: 'a'.repeat(32), ext: 'png' }, padding: 'x'.repeat(5000) } };
    board.answerRaw('/posts/31337.json', big);
    let start = board.requests.length;
    await expect(c.getPostById(31337)).rejects.toThrow(/over 2000 bytes/);
    expect(requestsSince(start)).toHaveLength(1);
    const chunked = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"post":{"pad":"');
      res.end(`${'y'.repeat(5000)}"}}`);
    });
    await new Promise<void>((resolve) => chunked.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(chunked.address() as AddressInfo).port}`;
      await expect(client({ baseUrl: url, maxBodyBytes: 2000 }).getPostById(1)).rejects.toThrow(/over 2000 bytes/);
      expect(await client({ baseUrl: url }).getPostById(1)).toBeNull();
    } finally {
      chunked.closeAllConnections();
      await new Promise<void>((resolve) => chunked.close(() => resolve()));
    }
    start = board.requests.length;
    expect(await client().getPostById(31337)).toMatchObject({ id: 31337, md5: 'a'.repeat(32) });
    expect(requestsSince(start)).toHaveLength(1);
  });

  it('uses the static URL instead of a file.url that is not absolute http(s), and reads malformed posts as absent', async () => {
    const added = board.addPost({ id: nextId++, ext: 'png' }, png);
    const expected = `${board.staticUrl}/data/${added.md5.slice(0, 2)}/${added.md5.slice(2, 4)}/${added.md5}.png`;
    const c = client();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', '/data/x.png', 'not a url', 42]) {
      board.answerRaw(`/posts/${added.id}.json`, { post: { id: added.id, file: { md5: added.md5, ext: 'png', url } } });
      expect((await c.getPostById(added.id))?.url, String(url)).toBe(expected);
    }
    for (const body of [
      { post: null },
      { post: { id: added.id, file: { md5: 5, ext: 'png' } } },
      { post: { id: '1', file: { md5: added.md5, ext: 'png' } } },
      'null',
      [1],
    ]) {
      board.answerRaw(`/posts/${added.id}.json`, typeof body === 'string' ? JSON.stringify(null) : body);
      expect(await c.getPostById(added.id), JSON.stringify(body)).toBeNull();
    }
  });
});

describe('board client logs', () => {
  it('say once that the board is unavailable and once that it answers again, however many lookups fail in between', async () => {
    const lines: Array<{ level: string; message: string }> = [];
    const logger = {
      info: (message: string) => lines.push({ level: 'info', message }),
      warn: (message: string) => lines.push({ level: 'warn', message }),
    };
    const c = client({ retries: 1, logger });
    const added = board.addPost({ id: nextId++, ext: 'png' }, png);
    board.failNext(503, 6);
    for (let i = 0; i < 3; i++) await expect(c.getPostById(added.id)).rejects.toBeInstanceOf(BoardUnavailableError);
    expect((await c.getPostById(added.id))?.md5).toBe(added.md5);
    expect(lines).toEqual([
      { level: 'warn', message: 'board request will be retried' },
      { level: 'warn', message: 'board unavailable' },
      { level: 'info', message: 'board available again' },
    ]);
  });
});
