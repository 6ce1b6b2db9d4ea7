import { THUMBNAIL_JOB, thumbnailJobId } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5For, startThumbs, waitFor, type ThumbsHarness } from './helpers.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const JSON_ACCEPT = { accept: 'application/json' };
const SAME_SITE = { 'sec-fetch-site': 'same-origin' };
const NOT_ADMIN = {
  success: false,
  code: 1022,
  error: 'Your API key does not have access to this service or endpoint.',
};

/** Each test speaks from its own address (TRUST_PROXY=1), so its invalid-key and rate-limit windows are its own. */
let addresses = 0;
const newAddress = (): string => `198.51.100.${++addresses}`;

const dashboard = (
  h: ThumbsHarness,
  path: string,
  headers: Record<string, string>,
  init: { method?: string; body?: string } = {},
) => request(`${h.url}/admin/queues${path}`, { redirect: 'manual', ...init, headers });

const cookieOf = (res: { headers: Headers }): string => (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

describe('the dashboard checks keys as the API does', () => {
  let h: ThumbsHarness;
  let adminKey: string;
  beforeAll(async () => {
    h = await startThumbs({ TRUST_PROXY: '1' });
    adminKey = await h.newKey(['admin']);
  });
  afterAll(async () => h.close());

  it('answers 45 guessed keys from one address 403 1022 thirty times, then 429 in bucket auth.invalid before any lookup', async () => {
    const ip = newAddress();
    // An admin key the instance already checked keeps working for its address through the guessing.
    expect(
      (await dashboard(h, '/api/queues', { authorization: adminKey, 'x-forwarded-for': ip, ...JSON_ACCEPT })).status,
    ).toBe(200);
    // Counts the database lookups the guesses cost (the guards use this repository object).
    const findByKey = h.apiKeys.findByKey.bind(h.apiKeys);
    let lookups = 0;
    h.apiKeys.findByKey = (key: string) => {
      lookups++;
      return findByKey(key);
    };
    const answers = [];
    try {
      for (let i = 0; i < 45; i++)
        answers.push(
          await dashboard(h, '/api/queues', {
            authorization: `pl_guess_${i}_${md5For('guess')}`,
            'x-forwarded-for': ip,
            ...JSON_ACCEPT,
          }),
        );
    } finally {
      h.apiKeys.findByKey = findByKey;
    }
    expect(lookups).toBe(30);
    expect(answers.slice(0, 30).map((res) => res.status)).toEqual(Array<number>(30).fill(403));
    for (const res of answers.slice(0, 30)) expect(res.body).toEqual(NOT_ADMIN);
    expect(answers.slice(30).map((res) => res.status)).toEqual(Array<number>(15).fill(429));
    const limited = answers[30]!;
    expect(limited.body).toMatchObject({ success: false, code: 1000, info: { bucket: 'auth.invalid', limit: 30 } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-bucket')).toBe('auth.invalid');
    expect(
      (await dashboard(h, '/api/queues', { authorization: adminKey, 'x-forwarded-for': ip, ...JSON_ACCEPT })).status,
    ).toBe(200);
    // The same limiter as the API's: the address is refused there too, before the key is looked up.
    const api = await request(`${h.url}/${md5For('api')}`, {
      headers: { authorization: 'pl_another_guess', 'x-forwarded-for': ip },
    });
    expect(api.status).toBe(429);
    expect(api.body).toMatchObject({ code: 1000, info: { bucket: 'auth.invalid' } });
    // Other addresses are not affected.
    expect(
      (
        await dashboard(h, '/api/queues', {
          authorization: 'pl_guess_elsewhere',
          'x-forwarded-for': newAddress(),
          ...JSON_ACCEPT,
        })
      ).status,
    ).toBe(403);
  });

  it('counts a valid key without the admin flag like an unknown one, so the limit does not tell them apart either', async () => {
    const ip = newAddress();
    // The API accepted this key a moment ago: the instance trusts it, but not for the dashboard.
    expect(
      (await request(`${h.url}/${md5For('thumbs')}`, { headers: { ...h.auth, 'x-forwarded-for': ip } })).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        (await dashboard(h, '/api/queues', { authorization: h.key, 'x-forwarded-for': ip, ...JSON_ACCEPT })).status,
      );
    expect(statuses).toEqual([...Array<number>(30).fill(403), 429]);
  });

  it('counts the keys of the login form against the same limit, and answers a browser with the form', async () => {
    const ip = newAddress();
    for (let i = 0; i < 25; i++)
      expect(
        (await dashboard(h, '/api/queues', { authorization: `pl_form_${i}`, 'x-forwarded-for': ip, ...JSON_ACCEPT }))
          .status,
      ).toBe(403);
    const form = (key: string) =>
      request(`${h.url}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, ...SAME_SITE, ...HTML },
        body: new URLSearchParams({ key }).toString(),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await form(`pl_form_guess_${i}`)).status);
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    const limited = await form('pl_form_last');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toContain('text/html');
    expect(limited.text).toContain('Too many invalid API keys from this address');
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect(limited.headers.get('cache-control')).toBe('no-store');
  });

  it('limits dashboard requests per key in bucket thumbs.admin', async () => {
    const limitedKey = await h.newKey(['admin'], { rateLimitRoute: 3 });
    const ip = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await dashboard(h, '/api/queues', { authorization: limitedKey, 'x-forwarded-for': ip, ...JSON_ACCEPT }))
          .status,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await dashboard(h, '/api/queues', {
      authorization: limitedKey,
      'x-forwarded-for': ip,
      ...JSON_ACCEPT,
    });
    expect(limited.body).toMatchObject({ code: 1000, info: { bucket: 'thumbs.admin', limit: 3 } });
    expect(limited.headers.get('cache-control')).toBe('no-store');
  });

  it('sends Cache-Control: no-store with every answer but the content-named assets, which only a browser may keep', async () => {
    const ip = newAddress();
    const admin = { authorization: adminKey, 'x-forwarded-for': ip };
    const page = await dashboard(h, '/', { ...admin, ...HTML });
    expect(page.status).toBe(200);
    const answers = {
      page,
      queue: await dashboard(h, '/queue/thumbs', { ...admin, ...HTML }),
      api: await dashboard(h, '/api/queues', { ...admin, ...JSON_ACCEPT }),
      unversionedAsset: await dashboard(h, '/static/favicon-32x32.png', admin),
      login: await request(`${h.url}/admin/login`, { headers: HTML }),
      toLogin: await dashboard(h, '/', HTML),
      noKey: await dashboard(h, '/api/queues', JSON_ACCEPT),
      notAdmin: await dashboard(h, '/api/queues', { authorization: h.key, 'x-forwarded-for': ip, ...JSON_ACCEPT }),
      crossSite: await dashboard(
        h,
        '/api/queues/thumbs/retry/failed',
        { ...admin, 'sec-fetch-site': 'cross-site' },
        { method: 'PUT' },
      ),
      adminHome: await request(`${h.url}/admin`, { redirect: 'manual' }),
    };
    expect(
      Object.fromEntries(
        Object.entries(answers).map(([name, res]) => [name, [res.status, res.headers.get('cache-control')]]),
      ),
    ).toEqual({
      page: [200, 'no-store'],
      queue: [200, 'no-store'],
      api: [200, 'no-store'],
      unversionedAsset: [200, 'no-store'],
      login: [200, 'no-store'],
      toLogin: [303, 'no-store'],
      noKey: [401, 'no-store'],
      notAdmin: [403, 'no-store'],
      crossSite: [403, 'no-store'],
      adminHome: [302, 'no-store'],
    });
    const bundles = [...page.text.matchAll(/(?:src|href)="(static\/(?:js|css)\/[^"]+)"/g)].map((match) => match[1]!);
    expect(bundles.length).toBeGreaterThan(0);
    for (const bundle of bundles) {
      const asset = await dashboard(h, `/${bundle}`, admin);
      expect(asset.status, bundle).toBe(200);
      expect(asset.headers.get('cache-control'), bundle).toBe('private, max-age=31536000, immutable');
    }
  });

  it('makes the session cookie Secure by the scheme of THUMBS_URL when ADMIN_COOKIE_SECURE is unset (http://: not Secure)', async () => {
    const res = await request(`${h.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': newAddress(),
        ...SAME_SITE,
        ...HTML,
      },
      body: new URLSearchParams({ key: adminKey }).toString(),
    });
    expect(res.status).toBe(303);
    expect(cookieOf(res)).toMatch(/^pawlink_admin=/);
    expect(res.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('is read-only by default: bull-board shows no action and refuses every change with 405, creating nothing', async () => {
    const admin = { authorization: adminKey, 'x-forwarded-for': newAddress(), ...SAME_SITE, ...JSON_ACCEPT };
    const queues = await dashboard(h, '/api/queues?activeQueue=thumbs', admin);
    expect(queues.body.queues[0]).toMatchObject({ name: 'thumbs', readOnlyMode: true, allowRetries: false });
    const counts = await h.queue.getJobCounts();
    const json = { ...admin, 'content-type': 'application/json' };
    const changes: Array<[string, string, string?]> = [
      [
        'POST',
        '/api/queues/thumbs/add',
        JSON.stringify({ name: THUMBNAIL_JOB, data: { md5: md5For('ro'), type: 'gif', requestedAt: 0 } }),
      ],
      ['POST', '/api/queues/thumbs/add', '{}'],
      ['PUT', '/api/queues/thumbs/retry/failed'],
      ['PUT', '/api/queues/thumbs/clean/failed'],
      ['PUT', '/api/queues/thumbs/empty'],
      ['PUT', '/api/queues/thumbs/obliterate', '{}'],
      ['PUT', '/api/queues/thumbs/pause'],
      ['PUT', '/api/queues/pause'],
    ];
    for (const [method, path, body] of changes) {
      const res = await dashboard(h, path, json, { method, ...(body === undefined ? {} : { body }) });
      expect([method, path, res.status, res.body.error?.key]).toEqual([method, path, 405, 'ERRORS.QUEUE_READ_ONLY']);
    }
    expect(await h.queue.getJobCounts()).toEqual(counts);
    expect(await h.queue.isPaused()).toBe(false);
  });
});

describe('the dashboard with THUMBS_DASHBOARD_WRITE=true and ADMIN_COOKIE_SECURE=true', () => {
  let h: ThumbsHarness;
  let adminKey: string;
  beforeAll(async () => {
    h = await startThumbs({ THUMBS_DASHBOARD_WRITE: 'true', ADMIN_COOKIE_SECURE: 'true' });
    adminKey = await h.newKey(['admin']);
  });
  afterAll(async () => h.close());

  const admin = () => ({ authorization: adminKey, 'content-type': 'application/json', ...SAME_SITE, ...JSON_ACCEPT });

  it('refuses a malformed add with 400 and creates no job; adds a thumbnail job', async () => {
    const counts = await h.queue.getJobCounts();
    const md5 = md5For('added');
    const malformed = [
      '{}',
      '[]',
      'null',
      JSON.stringify({ name: THUMBNAIL_JOB }),
      JSON.stringify({ name: 'other', data: { md5, type: 'gif', requestedAt: 0 } }),
      JSON.stringify({ name: THUMBNAIL_JOB, data: { md5: 'not-an-md5', type: 'gif', requestedAt: 0 } }),
      JSON.stringify({ name: THUMBNAIL_JOB, data: { md5, type: 'bmp', requestedAt: 0 } }),
      JSON.stringify({ name: THUMBNAIL_JOB, data: { md5, type: 'gif' } }),
      JSON.stringify({ name: THUMBNAIL_JOB, data: { md5, type: 'gif', requestedAt: 0, extra: 1 } }),
      JSON.stringify({ name: THUMBNAIL_JOB, data: { md5, type: 'gif', requestedAt: 0 }, options: { jobId: 'mine' } }),
    ];
    for (const body of malformed) {
      const res = await dashboard(h, '/api/queues/thumbs/add', admin(), { method: 'POST', body });
      expect([body, res.status, res.body.error?.key]).toEqual([body, 400, 'ERRORS.INVALID_REQUEST_BODY']);
    }
    const notJson = await dashboard(
      h,
      '/api/queues/thumbs/add',
      { ...admin(), 'content-type': 'text/plain' },
      { method: 'POST', body: 'name=x' },
    );
    expect(notJson.status).toBe(400);
    expect(await h.queue.getJobCounts()).toEqual(counts);

    const added = await dashboard(h, '/api/queues/thumbs/add', admin(), {
      method: 'POST',
      body: JSON.stringify({
        name: THUMBNAIL_JOB,
        data: { md5, type: 'png', requestedAt: 1 },
        options: { jobId: thumbnailJobId(md5, 'png') },
      }),
    });
    expect(added.status).toBe(200);
    const job = await h.queue.getJob(thumbnailJobId(md5, 'png'));
    expect(job?.name).toBe(THUMBNAIL_JOB);
    expect(job?.data).toEqual({ md5, type: 'png', requestedAt: 1 });
    const queues = await dashboard(h, '/api/queues', admin());
    expect(queues.body.queues[0]).toMatchObject({ readOnlyMode: false, allowRetries: true });
  });

  it("never writes a callback delivery: they are made by the worker from a job's end", async () => {
    const md5 = md5For('callback-add');
    const body = JSON.stringify({
      name: 'deliver-callback',
      data: { callbackURL: 'http://10.0.0.1/', apiKeyId: 1, payload: { md5 } },
    });
    const added = await dashboard(h, '/api/queues/thumbnail-callbacks/add', admin(), { method: 'POST', body });
    expect([added.status, added.body.error?.key]).toEqual([400, 'ERRORS.INVALID_REQUEST_BODY']);
    const thumbnailShaped = JSON.stringify({ name: THUMBNAIL_JOB, data: { md5, type: 'png', requestedAt: 1 } });
    expect(
      (await dashboard(h, '/api/queues/thumbnail-callbacks/add', admin(), { method: 'POST', body: thumbnailShaped }))
        .status,
    ).toBe(400);
  });

  it('shows a failed job with the sentence of its failure, never its stack trace', async () => {
    const md5 = md5For('failing');
    h.startWorker(() =>
      Promise.reject(
        new UnrecoverableError(
          'the post is not on the board\n    at render (/srv/pawlink/apps/thumbs-worker/dist/render.js:12:3)',
        ),
      ),
    );
    expect((await request(`${h.url}/${md5}/gif`, { method: 'PUT', headers: h.auth })).status).toBe(202);
    const id = thumbnailJobId(md5, 'gif');
    const stored = await waitFor(async () => {
      const job = await h.queue.getJob(id);
      return job?.failedReason ? job : undefined;
    });
    // What BullMQ keeps: the whole message and a stack trace with server paths.
    expect((stored.stacktrace ?? []).join('\n')).toMatch(/\n\s+at /);
    const one = await dashboard(h, `/api/queues/thumbs/${id}`, admin());
    expect(one.status).toBe(200);
    expect(one.body.job).toMatchObject({
      id,
      failedReason: 'the post is not on the board',
      stacktrace: [],
      isFailed: true,
    });
    const listed = await dashboard(h, '/api/queues?activeQueue=thumbs&status=failed', admin());
    const job = (listed.body.queues[0].jobs as Array<{ id: string }>).find((j) => j.id === id);
    expect(job).toMatchObject({ failedReason: 'the post is not on the board', stacktrace: [] });
    expect(listed.text).not.toContain('/srv/pawlink');
    // A failed job may be retried from the dashboard in this mode.
    const retried = await dashboard(h, `/api/queues/thumbs/${id}/retry`, admin(), { method: 'PUT' });
    expect(retried.status).toBe(204);
  });

  it('marks the session cookie Secure behind a TLS proxy although THUMBS_URL is http://', async () => {
    expect(h.config.urls.thumbs.startsWith('http://')).toBe(true);
    const res = await request(`${h.url}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...SAME_SITE, ...HTML },
      body: new URLSearchParams({ key: adminKey }).toString(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/; Secure(;|$)/);
    expect(cookieOf(res)).toMatch(/^pawlink_admin=/);
  });
});
