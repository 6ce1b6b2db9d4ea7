import {
  THUMBNAIL_CALLBACK_JOB,
  THUMBNAIL_CALLBACK_QUEUE,
  thumbnailQueuePrefix,
  type ThumbnailCallbackDelivery,
} from '@pawlink/contracts';
import { createRedis } from '@pawlink/service-kit';
import { request } from '@pawlink/test-kit';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const JSON_ACCEPT = { accept: 'application/json' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A login through the form as a browser on the same site would send it; returns the response. */
const login = (
  h: ThumbsHarness,
  key: string,
  headers: Record<string, string> = { 'sec-fetch-site': 'same-origin', ...HTML },
) =>
  request(`${h.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...FORM, ...headers },
    body: new URLSearchParams({ key }).toString(),
  });

const cookieOf = (res: { headers: Headers }): string => (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

describe('queue dashboard at /admin/queues', () => {
  let h: ThumbsHarness;
  let adminKey: string;
  beforeAll(async () => {
    h = await startThumbs();
    adminKey = await h.newKey(['admin']);
  });
  afterAll(async () => h.close());

  const dashboard = (path: string, headers: Record<string, string>, method = 'GET') =>
    request(`${h.url}/admin/queues${path}`, { method, redirect: 'manual', headers });

  it('sends a browser without a session to the login page, and answers API clients 401 1013', async () => {
    const browser = await dashboard('/', HTML);
    expect(browser.status).toBe(303);
    expect(browser.headers.get('location')).toBe('/admin/login');
    const api = await dashboard('/api/queues', JSON_ACCEPT);
    expect(api.status).toBe(401);
    expect(api.body).toMatchObject({ success: false, code: 1013 });
  });

  it('refuses every key that is not an admin key with one answer, 403 1022, whatever is wrong with it', async () => {
    const disabledKey = await h.newKey(['admin']);
    const disabled = (await h.apiKeys.findByKey(disabledKey))!;
    await h.apiKeys.update(disabled.id, { disabled: true, disabledReason: 'rotated' });
    const revokedKey = await h.newKey(['admin']);
    await h.apiKeys.update((await h.apiKeys.findByKey(revokedKey))!.id, { active: false });
    // A valid key without the flag, an unknown key, a disabled and an inactive admin key: nothing tells them apart.
    const refused = [
      await dashboard('/api/queues', { authorization: h.key, ...JSON_ACCEPT }),
      await dashboard('/api/queues', { authorization: 'pl_made_up_key', ...JSON_ACCEPT }),
      await dashboard('/', { authorization: disabledKey, ...HTML }),
      await dashboard('/api/queues', { authorization: `Bearer ${revokedKey}` }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        success: false,
        code: 1022,
        error: 'Your API key does not have access to this service or endpoint.',
      });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('serves the dashboard, its own assets and its API to an admin key in Authorization (curl)', async () => {
    const page = await dashboard('/', { authorization: adminKey, ...HTML });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-powered-by')).toBeNull();
    expect(page.text).toContain('<base href="/admin/queues/"');
    // Its own stylesheet, not bull-board's Google Fonts one (the CSP would refuse it), on every page of the UI.
    expect(page.text).toMatch(/<link href="static\/css\/main\.[^"]+\.css" rel="stylesheet">/);
    expect(page.text).not.toContain('fonts.googleapis.com');
    expect((await dashboard('/queue/thumbs', { authorization: adminKey, ...HTML })).text).not.toContain(
      'fonts.googleapis.com',
    );
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const asset = await dashboard(`/${script}`, { authorization: adminKey });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    const queues = await dashboard('/api/queues', { authorization: adminKey, ...JSON_ACCEPT });
    expect(queues.status).toBe(200);
    // The thumbnails, and the worker's callback deliveries (failed ones stay visible there).
    expect(queues.body.queues.map((queue: { name: string }) => queue.name)).toEqual(['thumbs', 'thumbnail-callbacks']);
  });

  it('shows failed callback deliveries with their reason, read-only', async () => {
    const connection = createRedis(h.config.redis, { forQueue: true });
    const prefix = thumbnailQueuePrefix(h.config.redis.prefix);
    const deliveries = new Queue<ThumbnailCallbackDelivery>(THUMBNAIL_CALLBACK_QUEUE, { connection, prefix });
    // A stand-in for the worker's delivery worker, whose receiver never answered 2xx.
    const worker = new Worker<ThumbnailCallbackDelivery>(
      THUMBNAIL_CALLBACK_QUEUE,
      () => Promise.reject(new UnrecoverableError('the receiver answered HTTP 500')),
      { connection: createRedis(h.config.redis, { forQueue: true }), prefix },
    );
    worker.on('error', () => undefined);
    try {
      const payload = {
        event: 'thumbnail.done',
        md5: 'd41d8cd98f00b204e9800998ecf8427e',
        type: 'gif',
        url: 'http://media.test/thumbs/d41d8cd98f00b204e9800998ecf8427e.gif',
        code: null,
        error: null,
        at: 1,
      } as const;
      const job = await deliveries.add(THUMBNAIL_CALLBACK_JOB, {
        callbackURL: 'https://bot.example/hook',
        apiKeyId: 1,
        payload,
      });
      await waitFor(async () => ((await deliveries.getJobState(job.id!)) === 'failed' ? true : undefined));
      const listed = await dashboard(`/api/queues?activeQueue=${THUMBNAIL_CALLBACK_QUEUE}&status=failed`, {
        authorization: adminKey,
        ...JSON_ACCEPT,
      });
      expect(listed.status).toBe(200);
      const queue = (
        listed.body.queues as Array<{
          name: string;
          readOnlyMode: boolean;
          jobs: Array<{ id: string; failedReason: string }>;
        }>
      ).find((q) => q.name === THUMBNAIL_CALLBACK_QUEUE);
      expect(queue?.readOnlyMode).toBe(true);
      expect(queue?.jobs.find((listedJob) => listedJob.id === job.id)).toMatchObject({
        failedReason: 'the receiver answered HTTP 500',
      });
    } finally {
      await worker.close();
      await deliveries.close();
      connection.disconnect();
    }
  });

  it('serves a login form under a strict CSP with no script', async () => {
    const res = await request(`${h.url}/admin/login`, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.text).toContain('<form method="post" action="/admin/login">');
    expect(res.text).not.toContain('<script');
  });

  it('logs in with the form: a session cookie (HttpOnly, SameSite=Strict, Path=/admin) that never holds the key', async () => {
    const res = await login(h, adminKey);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/queues/');
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^pawlink_admin=[A-Za-z0-9_-]{40,}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/admin');
    expect(setCookie).toContain('Max-Age=28800');
    expect(setCookie).not.toContain(adminKey);
    const cookie = cookieOf(res);
    const token = cookie.split('=')[1] ?? '';
    // Redis holds a hash of the token mapped to the key id: neither the token nor the key.
    const keys = await h.redis.keys(`${h.config.redis.prefix}admin:session:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).not.toContain(token);
      expect(await h.redis.get(key)).toMatch(/^\d+$/);
    }
    const page = await dashboard('/', { cookie, ...HTML });
    expect(page.status).toBe(200);
    expect((await dashboard('/api/queues', { cookie, ...JSON_ACCEPT })).status).toBe(200);
  });

  it('shows the form again with the reason when the key is not an admin key; API clients get the code', async () => {
    const browser = await login(h, h.key);
    expect(browser.status).toBe(403);
    expect(browser.headers.get('content-type')).toContain('text/html');
    expect(browser.text).toContain('id="error"');
    expect(browser.headers.get('set-cookie')).toBeNull();
    // An unknown key gets what a valid key without the flag gets.
    const api = await login(h, 'pl_made_up_key', JSON_ACCEPT);
    expect(api.status).toBe(403);
    expect(api.body).toEqual({
      success: false,
      code: 1022,
      error: 'Your API key does not have access to this service or endpoint.',
    });
    expect(await login(h, h.key, JSON_ACCEPT).then((res) => res.body)).toEqual(api.body);
    const empty = await request(`${h.url}/admin/login`, {
      method: 'POST',
      headers: { ...FORM, ...JSON_ACCEPT },
      body: '',
    });
    expect(empty.status).toBe(401);
    expect(empty.body.code).toBe(1013);
  });

  it('refuses cross-site posts with 403 1023 (Sec-Fetch-Site or Origin), before looking at the key', async () => {
    const bySite = await login(h, adminKey, { 'sec-fetch-site': 'cross-site', ...HTML });
    expect(bySite.status).toBe(403);
    expect(bySite.body).toMatchObject({ success: false, code: 1023 });
    const byOrigin = await login(h, adminKey, { origin: 'https://evil.example', ...JSON_ACCEPT });
    expect(byOrigin.status).toBe(403);
    expect(byOrigin.body.code).toBe(1023);
    const cookie = cookieOf(await login(h, adminKey));
    const retry = await dashboard(
      '/api/queues/thumbs/retry/failed',
      { cookie, 'sec-fetch-site': 'same-site', ...JSON_ACCEPT },
      'PUT',
    );
    expect(retry.status).toBe(403);
    expect(retry.body.code).toBe(1023);
    const logout = await request(`${h.url}/admin/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: 'null' },
    });
    expect(logout.status).toBe(403);
    expect(logout.body.code).toBe(1023);
    // The same origin is accepted (the public URL's, or the address the request was sent to).
    expect((await login(h, adminKey, { origin: h.url, ...HTML })).status).toBe(303);
    expect((await login(h, adminKey, { origin: 'http://thumbs.test', ...HTML })).status).toBe(303);
  });

  it('ends the session of a key that is revoked or disabled', async () => {
    const key = await h.newKey(['admin']);
    const cookie = cookieOf(await login(h, key));
    expect((await dashboard('/', { cookie, ...HTML })).status).toBe(200);
    await h.apiKeys.update((await h.apiKeys.findByKey(key))!.id, { active: false });
    const after = await dashboard('/', { cookie, ...HTML });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/admin/login');
    expect((await dashboard('/api/queues', { cookie, ...JSON_ACCEPT })).body.code).toBe(1013);
  });

  it('logs out: the session is gone and the cookie cleared', async () => {
    const cookie = cookieOf(await login(h, adminKey));
    const res = await request(`${h.url}/admin/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/login');
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await dashboard('/api/queues', { cookie, ...JSON_ACCEPT })).status).toBe(401);
  });

  it('answers other methods on the login paths 405, and /admin with the dashboard', async () => {
    const res = await request(`${h.url}/admin/login`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect((await request(`${h.url}/admin/logout`, { redirect: 'manual' })).status).toBe(405);
    const root = await request(`${h.url}/admin`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/admin/queues/');
  });
});

describe('admin login rate limit', () => {
  let h: ThumbsHarness;
  beforeAll(async () => {
    h = await startThumbs();
  });
  afterAll(async () => h.close());

  it('allows 10 attempts a minute per address, then 429 1000 in bucket thumbs.admin-login', async () => {
    for (let i = 0; i < 10; i++) expect((await login(h, 'pl_guess', JSON_ACCEPT)).status).toBe(403);
    const limited = await login(h, 'pl_guess', JSON_ACCEPT);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 1000, info: { bucket: 'thumbs.admin-login' } });
  });
});
