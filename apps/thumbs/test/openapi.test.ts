import { RATE_LIMIT_BUCKETS } from '@pawlink/auth';
import { INTERNAL, servedDocument } from '@pawlink/contracts/openapi';
import { describeOpenApiDocument } from '@pawlink/test-kit/suites/openapi-document';
import { thumbsOpenApi } from '../src/openapi.js';
import { THUMBNAIL_TYPES } from '@pawlink/contracts';
import { createLogger, type ReadOnlySwitch } from '@pawlink/service-kit';
import { expressRoutes, recordingGuards, request, routeDrift } from '@pawlink/test-kit';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadThumbsConfig } from '../src/config.js';
import type { ThumbsContainer } from '../src/container.js';
import { startThumbs, THUMBS_URL, type ThumbsHarness } from './helpers.js';

describeOpenApiDocument('thumbs', thumbsOpenApi, { internalPaths: ['/admin/queues', '/admin/queues/{path}'] });

describe('the thumbs document as served', () => {
  it("leave out the paths marked internal (thumbs' bull-board dashboard) and keep every other", () => {
    const served = servedDocument(thumbsOpenApi, 'https://thumbs.example.com');
    expect(Object.keys(served.paths).filter((path) => path.startsWith('/admin/queues'))).toEqual([]);
    expect(Object.keys(thumbsOpenApi.paths)).toEqual(expect.arrayContaining(['/admin/queues', '/admin/queues/{path}']));
    const kept = Object.entries(thumbsOpenApi.paths)
      .filter(([, item]) => item[INTERNAL] !== true)
      .map(([path]) => path);
    expect(Object.keys(served.paths)).toEqual(kept);
    expect(served.servers).toEqual([{ url: 'https://thumbs.example.com' }]);
  });
});

describe('the thumbs OpenAPI document and the routes', () => {
  it('documents every route the app serves and no other, with their key and rate-limit guards', () => {
    const app = createApp({
      config: loadThumbsConfig({}),
      logger: createLogger('thumbs', 'error', { silent: true }),
      services: {} as ThumbsContainer,
      guards: recordingGuards(),
      readOnly: {} as ReadOnlySwitch,
      // Never asked: bull-board only checks that it is a BullMQ queue when the dashboard is built.
      queue: Object.assign(Object.create(Queue.prototype) as Queue, { name: 'thumbs' }),
    });
    // The original's `/check/<type>/<md5>` is served by `/check/:md5/:type`, which takes its segments either way.
    const legacyChecks = THUMBNAIL_TYPES.map((type) => ({
      method: 'GET',
      path: `/check/${type}/{md5}`,
      key: 'required' as const,
      rateLimit: 'thumbs.check',
    }));
    expect(routeDrift(thumbsOpenApi, expressRoutes(app), legacyChecks)).toEqual({
      undocumented: [],
      unserved: [],
      guards: [],
    });
    const buckets = Object.values(thumbsOpenApi.paths).flatMap((item) =>
      Object.values(item).map((operation) => (operation as Record<string, unknown>)['x-pawlink-rate-limit-bucket']),
    );
    for (const bucket of buckets.filter((b): b is string => typeof b === 'string'))
      expect(Object.keys(RATE_LIMIT_BUCKETS)).toContain(bucket);
  });
});

describe('the thumbs service serves its document and documentation without a key', () => {
  let h: ThumbsHarness;
  beforeAll(async () => {
    h = await startThumbs();
  });
  afterAll(() => h?.close());

  it('GET /openapi.json is the document, not a post id', async () => {
    const res = await request(`${h.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(servedDocument(thumbsOpenApi, THUMBS_URL))));
    // The dashboard's own routes are documented for the tests, not served as public API.
    expect(Object.keys(res.body.paths as object).filter((path) => path.startsWith('/admin/queues'))).toEqual([]);
    expect(Object.keys(res.body.paths as object)).toEqual(
      expect.arrayContaining(['/admin/login', '/check/{md5}/{type}']),
    );
  });

  it('GET / is the documentation page', async () => {
    const page = await request(`${h.url}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pawlink thumbnails');
    expect(page.text).toContain(THUMBS_URL);
    expect(page.text).toContain('thumbs.create');
  });
});
