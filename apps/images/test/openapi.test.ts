import { RATE_LIMIT_BUCKETS } from '@pawlink/auth';
import { servedDocument } from '@pawlink/contracts/openapi';
import { describeOpenApiDocument } from '@pawlink/test-kit/suites/openapi-document';
import { createLogger, type ReadOnlySwitch } from '@pawlink/service-kit';
import { expressRoutes, recordingGuards, request, routeDrift } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadImagesConfig } from '../src/config.js';
import { imagesOpenApi } from '../src/openapi.js';
import type { ImagesContainer } from '../src/container.js';
import { startHarness, type Harness } from './support.js';

describeOpenApiDocument('images', imagesOpenApi);

describe('the images OpenAPI document and the routes', () => {
  it('documents every route the app serves and no other, with their key and rate-limit guards', () => {
    const app = createApp({
      config: loadImagesConfig({}),
      logger: createLogger('images', 'error', { silent: true }),
      services: { images: {} } as ImagesContainer,
      guards: recordingGuards(),
      readOnly: {} as ReadOnlySwitch,
    });
    const served = expressRoutes(app);
    // Both forms of the random route: `/:category` and the slashed `/*category`.
    expect(
      served
        .filter((route) => route.method === 'GET' && /^\/\{[a-z]+\*?\}$/.test(route.path))
        .map((route) => route.path),
    ).toEqual(['/{category}', '/{category*}']);
    expect(routeDrift(imagesOpenApi, served)).toEqual({ undocumented: [], unserved: [], guards: [] });
    const buckets = Object.values(imagesOpenApi.paths).flatMap((item) =>
      Object.values(item).map((operation) => (operation as Record<string, unknown>)['x-pawlink-rate-limit-bucket']),
    );
    for (const bucket of buckets.filter((b): b is string => typeof b === 'string'))
      expect(Object.keys(RATE_LIMIT_BUCKETS)).toContain(bucket);
  });
});

describe('the images service serves its document and documentation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('img-openapi');
    await h.addCategory('furry.hug', 'Furry > Hug');
    await h.addImage('furry.hug', 1);
    await h.addImage('furry.hug', 2);
    await h.addCategory('furry.empty', 'Furry > Empty');
    // A category named like the document must not shadow it.
    await h.addCategory('openapi.json', 'Openapi > Json');
  });
  afterAll(() => h?.close());

  it('GET /openapi.json is the document, not a category, and needs no key', async () => {
    const res = await request(`${h.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(servedDocument(imagesOpenApi, h.config.urls.images))));
    expect((await request(`${h.url}/openapi/json`)).body.code).toBe(1030);
  });

  it('GET / lists the categories with their image counts, the limits and the other services', async () => {
    const page = await request(`${h.url}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Pawlink images');
    expect(page.text).toMatch(
      /<td>Furry &gt; Hug<\/td><td>furry\.hug<\/td><td class="number">2<\/td><td>enabled<\/td>/,
    );
    expect(page.text).toMatch(
      /<td>Furry &gt; Empty<\/td><td>furry\.empty<\/td><td class="number">0<\/td><td>disabled<\/td>/,
    );
    expect(page.text).toContain('images.random');
    expect(page.text).toContain(`href="${h.config.urls.shortener}/"`);
    const pointer = await request(`${h.url}/`, { headers: { accept: 'application/json' } });
    expect(pointer.body).toMatchObject({
      success: true,
      service: 'images',
      openapi: `${h.config.urls.images}/openapi.json`,
    });
  });

  it('keeps the page up without the category table when MySQL fails', async () => {
    const counts = h.container.images.categoryCounts;
    const original = counts.categoryCounts.bind(counts);
    counts.categoryCounts = () => Promise.reject(new Error('down'));
    try {
      const page = await request(`${h.url}/`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Not available right now.');
    } finally {
      counts.categoryCounts = original;
    }
  });
});
