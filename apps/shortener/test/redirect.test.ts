import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-redirect');
});
afterAll(async () => {
  await h.close();
});

/** A sample's value from GET /metrics (the metrics listener), whatever the label order (0 when absent, as Prometheus reads it). */
const sample = async (name: string, labels: Record<string, string> = {}): Promise<number> => {
  const metrics = await request(`${h.metricsUrl}/metrics`);
  const pairs = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = metrics.text
    .split('\n')
    .find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && pairs.every((pair) => l.includes(pair)));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
};
const fastHits = (): Promise<number> => sample('shortener_fast_redirects_total');
const redirectLabels = (method: string) => ({ method, route: '/:code', status: '302' });
const redirects = (method: string): Promise<number> => sample('http_requests_total', redirectLabels(method));
const redirectDurations = (method: string): Promise<number> =>
  sample('http_request_duration_seconds_count', redirectLabels(method));

describe('GET /:code', () => {
  it('redirects with 302, Location, a short private Cache-Control and X-Robots-Tag', async () => {
    const url = uniqueUrl();
    const { body } = await create(h, { url });
    const res = await request(`${h.url}/${body.data.code}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(url);
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const head = await request(`${h.url}/${body.data.code}`, { method: 'HEAD' });
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe(url);
  });

  it('needs no API key and ignores the query string', async () => {
    const url = uniqueUrl();
    const { body } = await create(h, { url });
    const res = await request(`${h.url}/${body.data.code}?utm=1`, { headers: { authorization: 'pl_bogus' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(url);
  });

  it.each([
    ['nope-not-here'],
    ['bad_chars'],
    ['x'.repeat(51)],
    ['%E2%9C%93'],
    ['%00'],
    ['%zz'],
    ['abc%'],
    ['%C0%AE'],
    ['%E0%A4%A'],
  ])('answers 404 text/plain for unknown code %s', async (code) => {
    const res = await request(`${h.url}/${code}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toBe('Unknown short url code.');
  });

  it('remembers an unknown code in Redis briefly, and a code created later redirects at once on every instance', async () => {
    const code = `later-${Date.now()}`;
    const key = `${h.config.redis.prefix}shortener:url:${code}`;
    expect((await request(`${h.url}/${code}`)).status).toBe(404);
    expect(await h.redis.get(key)).toBe('\u0000');
    expect(await h.redis.ttl(key)).toBeGreaterThan(0);
    expect((await request(`${h.url}/${code}`)).status).toBe(404);
    const other = await h.startInstance();
    expect((await request(`${other.url}/${code}`)).status).toBe(404);
    const url = uniqueUrl('later');
    expect((await create(h, { url, code })).status).toBe(201);
    for (const base of [h.url, other.url]) {
      const res = await request(`${base}/${code}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(url);
    }
  });

  it('answers warm redirects without Express (fast path) and with the same headers', async () => {
    const url = uniqueUrl();
    const { body } = await create(h, { url });
    h.cache.clear();
    const before = await fastHits();
    const cold = await request(`${h.url}/${body.data.code}`);
    expect(await fastHits()).toBe(before);
    const warm = await request(`${h.url}/${body.data.code}`);
    expect(await fastHits()).toBe(before + 1);
    for (const name of ['location', 'cache-control', 'x-robots-tag', 'content-length']) {
      expect(warm.headers.get(name), name).toBe(cold.headers.get(name));
    }
    expect(warm.status).toBe(302);
    expect(warm.headers.get('x-request-id')).toBeTruthy();
  });

  it('counts warm redirects in http_requests_total and the latency histogram, under the Express route label', async () => {
    const url = uniqueUrl();
    const { body } = await create(h, { url });
    h.cache.clear();
    const [hitsBefore, getsBefore, headsBefore, durationsBefore] = [
      await fastHits(),
      await redirects('GET'),
      await redirects('HEAD'),
      await redirectDurations('GET'),
    ];
    expect((await request(`${h.url}/${body.data.code}`)).status).toBe(302); // cold: through Express
    for (let i = 0; i < 3; i++) expect((await request(`${h.url}/${body.data.code}`)).status).toBe(302);
    expect((await request(`${h.url}/${body.data.code}`, { method: 'HEAD' })).status).toBe(302);
    expect(await fastHits()).toBe(hitsBefore + 4);
    expect(await redirects('GET')).toBe(getsBefore + 4);
    expect(await redirects('HEAD')).toBe(headsBefore + 1);
    expect(await redirectDurations('GET')).toBe(durationsBefore + 4);
  });

  it('does not touch MySQL once warm: served from process memory, then from Redis', async () => {
    const url = uniqueUrl();
    const { body } = await create(h, { url });
    const code = body.data.code;
    expect((await request(`${h.url}/${code}`)).status).toBe(302);
    // Behind the service's back: the row is gone but no invalidation was announced.
    await h.dataSource.query('DELETE FROM short_urls WHERE code = ?', [code]);
    const fromMemory = await request(`${h.url}/${code}`);
    expect(fromMemory.status).toBe(302);
    expect(fromMemory.headers.get('location')).toBe(url);
    h.cache.clear();
    const fromRedis = await request(`${h.url}/${code}`);
    expect(fromRedis.status).toBe(302);
    expect(fromRedis.headers.get('location')).toBe(url);
  });

  it('fills Redis and memory from MySQL on a cold miss', async () => {
    const url = uniqueUrl();
    const { body } = await create(h, { url });
    const key = `${h.config.redis.prefix}shortener:url:${body.data.code}`;
    await h.redis.del(key);
    h.cache.clear();
    expect((await request(`${h.url}/${body.data.code}`)).headers.get('location')).toBe(url);
    expect(await h.redis.get(key)).toBe(url);
    expect(h.cache.peek(body.data.code)?.url).toBe(url);
  });

  it('answers 405 with Allow for an unsupported method on a code', async () => {
    const res = await request(`${h.url}/somecode`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toContain('PATCH');
  });

  it('keeps /online and /metrics answering', async () => {
    const online = await request(`${h.url}/online`);
    expect(online.status).toBe(200);
    expect(online.body.success).toBe(true);
    expect((await request(`${h.metricsUrl}/metrics`)).status).toBe(200);
  });

  it('answers /metrics on the public URL as an unknown route, before any short code', async () => {
    const res = await request(`${h.url}/metrics`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code: 1024 });
  });
});
