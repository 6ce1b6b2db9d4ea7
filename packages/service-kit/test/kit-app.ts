import type { RequestListener } from 'node:http';
import {
  createLogger,
  createRedis,
  createServiceApp,
  DEFAULT_HTTP_LIMITS,
  HttpMetrics,
  listen,
  loadBaseConfig,
  metricsRequestListener,
  ReadOnlySwitch,
  requireParsedBody,
  requireWritable,
  ApiError,
  type HttpLimits,
} from '../src/index.js';
import { serveForTest, type TestServer, type TestContext } from '@pawlink/test-kit';

export interface KitAppOptions {
  /** Serve with the kit's own `listen()` (as runService does) on this host, with these limits, instead of a bare test server. */
  listen?: { host?: string; limits?: Partial<HttpLimits> };
}

/** The app served as runService serves it: `listen()` with its limits and protocol refusals. */
async function serveWithKit(
  handler: RequestListener,
  options: NonNullable<KitAppOptions['listen']>,
): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1';
  const { server, port } = await listen(handler, 0, host, { ...DEFAULT_HTTP_LIMITS, ...options.limits });
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small service built on the kit with one route of each kind the kit must handle. */
export async function startKitApp(ctx: TestContext, options: KitAppOptions = {}) {
  const config = loadBaseConfig(ctx.env);
  const logger = createLogger('shortener', 'error', { silent: true });
  const redis = createRedis(config.redis);
  const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'shortener', false);
  await readOnly.start();
  const metrics = new HttpMetrics('shortener');
  const { app, finalize } = createServiceApp({
    service: 'shortener',
    config: { bodyLimitBytes: 1024, trustProxy: 0 },
    logger,
    readOnly,
    metrics,
    // A route that takes a parameter as a list: `tag` may be repeated on /tagged only.
    queryLists: [{ path: /^\/tagged$/, names: ['tag'] }],
  });
  app.get('/tagged', (req, res) => {
    res.json({ success: true, query: req.query });
  });
  app.post('/echo', requireParsedBody, (req, res) => {
    res.json({ success: true, body: req.body as unknown });
  });
  app.get('/things/:id', (req, res) => {
    res.json({ success: true, id: req.params.id });
  });
  app.delete('/things/:id', (_req, res) => {
    res.status(204).end();
  });
  app.post('/write', requireWritable(readOnly), requireParsedBody, (_req, res) => {
    res.status(201).json({ success: true });
  });
  app.get('/boom', () => {
    throw new Error('SELECT secret FROM internals');
  });
  app.get('/async-boom', async () => {
    await Promise.resolve();
    throw new Error('stack with /srv/paths');
  });
  // A rate limit's 429, as the auth guards raise it: it names its bucket.
  app.get('/limited', () => {
    throw new ApiError('RATE_LIMITED_ROUTE', { headers: { 'X-RateLimit-Bucket': 'kit.limited' } });
  });
  app.get('/teapot', () => {
    throw new ApiError('NO_CHANGES', { extra: { why: 'test' } });
  });
  finalize();
  const server = options.listen ? await serveWithKit(app, options.listen) : await serveForTest(app);
  // The metrics listener runService starts beside the public server.
  const metricsServer = await serveForTest(metricsRequestListener(metrics));
  return {
    url: server.url,
    port: server.port,
    metricsUrl: metricsServer.url,
    config,
    redis,
    readOnly,
    async close() {
      readOnly.stop();
      await server.close();
      await metricsServer.close();
      redis.disconnect();
    },
  };
}
