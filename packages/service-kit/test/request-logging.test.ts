import { PassThrough } from 'node:stream';
import { createTestContext, jsonInit, request, serveForTest, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createLogger,
  createRedis,
  createServiceApp,
  loadBaseConfig,
  ReadOnlySwitch,
  requireParsedBody,
} from '../src/index.js';

let ctx: TestContext;
let close: () => Promise<void>;
let url: string;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  ctx = await createTestContext('kitlog');
  const config = loadBaseConfig(ctx.env);
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const logger = createLogger('shortener', 'http', { stream });
  const redis = createRedis(config.redis);
  const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'shortener', false);
  const { app, finalize } = createServiceApp({
    service: 'shortener',
    config: { bodyLimitBytes: 1024, trustProxy: 0 },
    logger,
    readOnly,
  });
  app.get('/work', async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.info('working', { step: 'get' });
    res.json({ success: true });
  });
  app.post('/work', requireParsedBody, async (_req, res) => {
    await Promise.resolve();
    logger.warn('working', { step: 'post' });
    res.json({ success: true });
  });
  finalize();
  const server = await serveForTest(app);
  url = server.url;
  close = async () => {
    await server.close();
    redis.disconnect();
  };
});

afterAll(async () => {
  await close();
  await ctx.cleanup();
});

it('tags every line logged while handling a request with its request id, after a body too', async () => {
  const get = await request(`${url}/work`, { headers: { 'x-request-id': 'req-get-1' } });
  const post = await request(`${url}/work`, jsonInit('POST', { a: 1 }, { 'x-request-id': 'req-post-1' }));
  expect(get.headers.get('x-request-id')).toBe('req-get-1');
  expect(post.headers.get('x-request-id')).toBe('req-post-1');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(lines.find((l) => l.message === 'working' && l.step === 'get')).toMatchObject({
    requestId: 'req-get-1',
    service: 'shortener',
  });
  expect(lines.find((l) => l.message === 'working' && l.step === 'post')).toMatchObject({ requestId: 'req-post-1' });
  expect(lines.filter((l) => l.message === 'request').map((l) => l.requestId)).toEqual(['req-get-1', 'req-post-1']);
});
