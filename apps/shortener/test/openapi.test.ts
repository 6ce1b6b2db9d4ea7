import { RATE_LIMIT_BUCKETS } from '@pawlink/auth';
import { servedDocument, type OpenApiDocument } from '@pawlink/contracts/openapi';
import { shortenerOpenApi } from '../src/openapi.js';
import { createLogger, type ReadOnlySwitch } from '@pawlink/service-kit';
import {
  ContractViolation,
  expressRoutes,
  recordingGuards,
  request,
  routeDrift,
  serveForTest,
  toTemplate,
} from '@pawlink/test-kit';
import type { ServerResponse } from 'node:http';
import { describeOpenApiDocument } from '@pawlink/test-kit/suites/openapi-document';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadShortenerConfig } from '../src/config.js';
import type { ShortenerContainer } from '../src/container.js';
import { REDIRECT_ROUTE } from '../src/endpoints/redirect-short-url.endpoint.js';
import { create, SHORTENER_URL, startHarness, type Harness } from './support.js';

/** The app's route table, built with guards that record what they stand for (nothing is served). */
function routeTable() {
  return createApp({
    config: loadShortenerConfig({ SHORTENER_URL }),
    logger: createLogger('shortener', 'error', { silent: true }),
    services: {} as ShortenerContainer,
    guards: recordingGuards(),
    readOnly: {} as ReadOnlySwitch,
  });
}

describeOpenApiDocument('shortener', shortenerOpenApi);

/** The fast redirect answers `GET /:code` before Express: it is a route of the service too. */
const FAST_PATH = [{ method: 'GET', path: toTemplate(REDIRECT_ROUTE) }];

describe('the shortener OpenAPI document and the routes', () => {
  it('documents every route the app serves (fast path included) and no other, with their key and rate-limit guards', () => {
    expect(routeDrift(shortenerOpenApi, expressRoutes(routeTable()), FAST_PATH)).toEqual({
      undocumented: [],
      unserved: [],
      guards: [],
    });
  });

  it('names only rate-limit buckets of the policy', () => {
    const buckets = Object.values(shortenerOpenApi.paths).flatMap((item) =>
      Object.values(item).map((operation) => (operation as Record<string, unknown>)['x-pawlink-rate-limit-bucket']),
    );
    for (const bucket of buckets.filter((b): b is string => typeof b === 'string'))
      expect(Object.keys(RATE_LIMIT_BUCKETS)).toContain(bucket);
  });

  it('reports a route missing from the document, an operation no route serves, and a guard that differs', () => {
    const app = routeTable();
    app.get('/extra', (_req, res) => res.end());
    const lacking: OpenApiDocument = {
      ...shortenerOpenApi,
      paths: { ...shortenerOpenApi.paths, '/gone': { get: shortenerOpenApi.paths['/online']!.get! } },
    };
    const unguarded = structuredClone(shortenerOpenApi);
    unguarded.paths['/create']!.post!.security = [];
    expect(routeDrift(lacking, expressRoutes(app), FAST_PATH)).toMatchObject({
      undocumented: ['GET /extra'],
      unserved: ['GET /gone'],
    });
    expect(routeDrift(unguarded, expressRoutes(routeTable()), FAST_PATH).guards).toEqual([
      'POST /create: key required in the app, none in the document',
    ]);
  });
});

describe('responses that do not match the document fail the test that received them', () => {
  const answers: Record<string, (res: ServerResponse) => void> = {
    '/online': (res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r' }).end('{"success":true}'),
    '/abc': (res) => res.writeHead(302, { location: 'https://example.com/', 'x-request-id': 'r' }).end(),
    '/abc.json': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":{}}'),
    '/create': (res) =>
      res
        .writeHead(405, { 'content-type': 'application/json', 'x-request-id': 'r', allow: 'GET, POST' })
        .end('{"success":false,"error":"x","code":1025}'),
    '/no/such/path': (res) =>
      res
        .writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'r' })
        .end('{"success":false,"error":"x","code":1075}'),
    '/teapot': (res) => res.writeHead(418, { 'x-request-id': 'r' }).end(),
  };
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const server = await serveForTest((req, res) => answers[new URL(req.url ?? '/', 'http://x').pathname]?.(res), {
      contract: shortenerOpenApi,
    });
    url = server.url;
    close = () => server.close();
  });
  afterAll(() => close());

  it.each([
    ['GET', '/online', /uptime/],
    ['GET', '/abc', /Cache-Control is required/],
    ['GET', '/abc.json', /X-Request-Id is required[\s\S]*data\/data must have required property 'code'/],
    ['PUT', '/create', /Allow is "GET, POST" but the document gives \/create "OPTIONS, POST"/],
    ['GET', '/no/such/path', /must be equal to constant/],
    ['GET', '/teapot', /does not document status 418/],
  ])('%s %s', async (method, path, problem) => {
    const error = await request(`${url}${path}`, { method }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as Error).message).toMatch(problem);
  });
});

describe('the shortener serves its document and documentation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('sh-openapi');
  });
  afterAll(() => h?.close());

  it('GET /openapi.json: the document with the public base URL, to anyone', async () => {
    const res = await request(`${h.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(servedDocument(shortenerOpenApi, SHORTENER_URL))));
    const options = await request(`${h.url}/openapi.json`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect((await request(`${h.url}/openapi.json`, { method: 'PATCH' })).body.code).toBe(1025);
  });

  it('no short code can be "openapi", whose JSON form the document would shadow', async () => {
    const res = await create(h, { url: 'https://example.com/openapi', code: 'openapi' });
    expect([res.status, res.body.code]).toEqual([409, 1072]);
  });

  it('GET / is the documentation page under a strict CSP; a JSON client gets a pointer', async () => {
    const page = await request(`${h.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe');
    expect(page.text).toContain('Pawlink shortener');
    expect(page.text).toContain(SHORTENER_URL);
    expect(page.text).toContain('Authorization: &lt;key&gt;');
    expect(page.text).toContain('shortener.create');
    expect(page.text).toContain(`href="${h.config.urls.images}/"`);
    expect(page.text).toContain(`href="${h.config.urls.thumbs}/"`);
    expect(page.text).not.toMatch(/<script>|<style>| style=/);

    const pointer = await request(`${h.url}/`, { headers: { accept: 'application/json' } });
    expect(pointer.body).toEqual({
      success: true,
      service: 'shortener',
      openapi: `${SHORTENER_URL}/openapi.json`,
      docs: `${SHORTENER_URL}/`,
    });
  });

  it('serves the page assets from node_modules, cacheable and compressed; an unknown asset is 1024', async () => {
    const bundle = await request(`${h.url}/assets/docs/swagger-ui-bundle.js`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(bundle.text).toContain('SwaggerUIBundle');
    const missing = await request(`${h.url}/assets/docs/nope.js`);
    expect([missing.status, missing.body.code]).toEqual([404, 1024]);
  });
});
