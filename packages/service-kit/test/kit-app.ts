import { createLogger, createRedis, createServiceApp, HttpMetrics, loadBaseConfig, metricsRequestListener, ReadOnlySwitch, requireParsedBody, requireWritable, ApiError } from '../src/index.js';
import { serveForTest, type TestContext } from '@pawlink/test-kit';

/** A small service built on the kit with one route of each kind the kit must handle. */
export async function startKitApp(ctx: TestContext) {
  const config = loadBaseConfig(ctx.env);
  const logger = createLogger('shortener', 'error', { silent: true });
  const redis = createRedis(config.redis);
  const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'shortener', false);
  await readOnly.start();
  const metrics = new HttpMetrics('shortener');
  const { app, finalize } = createServiceApp({ service: 'shortener', config: { bodyLimitBytes: 1024, trustProxy: 0 }, logger, readOnly, metrics });
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
  app.get('/teapot', () => {
    throw new ApiError('NO_CHANGES', { extra: { why: 'test' } });
  });
  finalize();
  const server = await serveForTest(app);
  // The metrics listener runService starts beside the public server.
  const metricsServer = await serveForTest(metricsRequestListener(metrics));
  return {
    url: server.url,
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
