import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, jsonInit, request, type TestContext } from '@pawlink/test-kit';
import { setReadOnly } from '../src/index.js';
import { startKitApp } from './kit-app.js';

let ctx: TestContext;
let kit: Awaited<ReturnType<typeof startKitApp>>;

beforeAll(async () => {
  ctx = await createTestContext('kit');
  kit = await startKitApp(ctx);
});

afterAll(async () => {
  await kit.close();
  await ctx.cleanup();
});

describe('request ids', () => {
  it('generates one when none is sent', async () => {
    const res = await request(`${kit.url}/online`);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('honours a sane incoming id', async () => {
    const res = await request(`${kit.url}/online`, { headers: { 'x-request-id': 'abc-123.x' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123.x');
  });

  it('replaces an insane incoming id', async () => {
    const res = await request(`${kit.url}/nope`, { headers: { 'x-request-id': 'a b<script>' } });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /online and /metrics', () => {
  it('answers uptime', async () => {
    const res = await request(`${kit.url}/online`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, readOnly: false });
    expect(Number.isInteger(res.body.uptime)).toBe(true);
  });

  it('exposes request counters by route pattern and default process metrics', async () => {
    await request(`${kit.url}/things/42`);
    const res = await request(`${kit.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_requests_total{method="GET",route="/things/:id",status="200"');
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('counts a rate limit’s 429 by the bucket it names', async () => {
    const before = await request(`${kit.metricsUrl}/metrics`);
    const count = (text: string): number =>
      Number(
        /^pawlink_rate_limit_refusals_total\{bucket="kit\.limited",service="shortener"\} (\d+)$/m.exec(text)?.[1] ?? 0,
      );
    expect((await request(`${kit.url}/limited`)).status).toBe(429);
    expect((await request(`${kit.url}/limited`)).status).toBe(429);
    const after = await request(`${kit.metricsUrl}/metrics`);
    expect(count(after.text)).toBe(count(before.text) + 2);
  });

  it('keeps /metrics off the public app: 404 1024 there', async () => {
    const res = await request(`${kit.url}/metrics`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1024 });
  });

  it('the metrics listener answers nothing else: 404 1024, and 405 1025 for other methods', async () => {
    const other = await request(`${kit.metricsUrl}/online`);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, code: 1024 });
    const post = await request(`${kit.metricsUrl}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.body).toMatchObject({ success: false, code: 1025 });
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('common errors', () => {
  it('1024 for an unknown route', async () => {
    const res = await request(`${kit.url}/does/not/exist`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1024 });
  });

  it('1025 with Allow for a wrong method on a known path', async () => {
    const res = await request(`${kit.url}/things/7`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS');
  });

  it('1026 for malformed JSON', async () => {
    const res = await request(`${kit.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1026);
  });

  it('1026 for a body of another content type', async () => {
    const res = await request(`${kit.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1026);
  });

  it('accepts JSON and form bodies', async () => {
    const json = await request(`${kit.url}/echo`, jsonInit('POST', { a: 1 }));
    expect(json.body).toEqual({ success: true, body: { a: 1 } });
    const form = await request(`${kit.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.body).toEqual({ success: true, body: { a: '1' } });
  });

  it('1026 for a corrupt compressed body', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await request(`${kit.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: 'garbage',
      });
      expect(res.status, encoding).toBe(400);
      expect(res.body.code, encoding).toBe(1026);
    }
  });

  it("lets the route's guards answer before an unreadable body: read-only 503, unknown route 1024", async () => {
    await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], true);
    await kit.readOnly.refresh();
    try {
      const res = await request(`${kit.url}/write`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":',
      });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe(1003);
    } finally {
      await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], false);
      await kit.readOnly.refresh();
    }
    const malformed = await request(`${kit.url}/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(malformed.body.code).toBe(1026);
    const large = await request(`${kit.url}/write`, jsonInit('POST', { big: 'x'.repeat(5000) }));
    expect(large.status).toBe(413);
    expect(large.body.code).toBe(1027);
    const unknown = await request(`${kit.url}/no/such/route`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(1024);
  });

  it('1027 for a body over the limit', async () => {
    const res = await request(`${kit.url}/echo`, jsonInit('POST', { big: 'x'.repeat(5000) }));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(1027);
  });

  it('code 0 without internals for a thrown error', async () => {
    for (const path of ['/boom', '/async-boom']) {
      const res = await request(`${kit.url}${path}`);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        success: false,
        error: 'There was an internal error while attempting to perform that action.',
        code: 0,
      });
      expect(res.text).not.toMatch(/SELECT|secret|\/srv|\n\s+at /);
    }
  });

  it('renders registry errors with their status and extra', async () => {
    const res = await request(`${kit.url}/teapot`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: 'No changes were provided.',
      code: 1080,
      extra: { why: 'test' },
    });
  });

  it('1024 for an undecodable path', async () => {
    const res = await request(`${kit.url}/things/%E0%A4%A`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1024);
  });
});

describe('query parameters: one shape each, in one place for every route', () => {
  it('refuses a bracketed or repeated parameter with 400 1057 naming it, on a route that reads it or not, known or not', async () => {
    for (const [path, name] of [
      ['/things/1?id[]=2', 'id'],
      ['/things/1?limit[x]=2', 'limit'],
      ['/things/1?q=1&q=2', 'q'],
      ['/online?a%5B%5D=1', 'a'],
      ['/no/such/route?x=1&x=1', 'x'],
      ['/tagged?tag[]=a', 'tag'],
    ] as const) {
      const res = await request(`${kit.url}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ success: false, code: 1057 });
      expect(res.body.error, path).toContain(name);
    }
  });

  it('answers 422 1085 for a bracketed or repeated callbackURL', async () => {
    for (const path of ['/things/1?callbackURL[]=http://example.com/', '/things/1?callbackURL=a&callbackURL=b']) {
      const res = await request(`${kit.url}${path}`);
      expect(res.status, path).toBe(422);
      expect(res.body.code, path).toBe(1085);
    }
  });

  it('takes plain parameters, and repeats of a parameter a route declares as a list', async () => {
    expect((await request(`${kit.url}/things/1?a=1&b=%5Bx%5D`)).status).toBe(200);
    const tagged = await request(`${kit.url}/tagged?tag=a&tag=b&other=1`);
    expect(tagged.status).toBe(200);
    expect(tagged.body.query).toEqual({ tag: ['a', 'b'], other: '1' });
    expect((await request(`${kit.url}/tagged?tag=a&other=1&other=2`)).body.code).toBe(1057);
  });
});

describe('read-only switch', () => {
  it('answers 503 code 1003 on affected routes only, and lifts again', async () => {
    expect((await request(`${kit.url}/write`, { method: 'POST' })).status).toBe(201);
    await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], true);
    await kit.readOnly.refresh();
    const blocked = await request(`${kit.url}/write`, { method: 'POST' });
    expect(blocked.status).toBe(503);
    expect(blocked.body.code).toBe(1003);
    expect((await request(`${kit.url}/things/1`)).status).toBe(200);
    expect((await request(`${kit.url}/online`)).body.readOnly).toBe(true);
    await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], false);
    await kit.readOnly.refresh();
    expect((await request(`${kit.url}/write`, { method: 'POST' })).status).toBe(201);
  });
});
