import { loadBaseConfig } from '@pawlink/service-kit';
import {
  admin,
  createKey,
  createTestContext,
  jsonInit,
  request,
  startService,
  type ServiceProcess,
  type TestContext,
} from '@pawlink/test-kit';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * API.md §1 on every service, through the real processes: each common code, X-Request-Id,
 * /online, /metrics, the read-only switch flipped with bin/admin, and a clean SIGTERM exit.
 */

const MD5 = '0123456789abcdef0123456789abcdef';

interface Probe {
  flag: string;
  /** A key-protected request (auth runs before anything else on it). */
  protectedRequest: (key?: string) => [string, RequestInit];
  /** A body-carrying route for 1026/1027. */
  bodyRoute: [method: string, path: string];
  /** A known path and a method it does not accept, with the methods it does. */
  wrongMethod: [method: string, path: string, allow: string];
  /** An unknown path and the 404 code it gets (images reads any GET path as a slashed category). */
  unknownRoute: [path: string, code: number];
  /** A read-only affected request, or null when the service has none. */
  writeRequest: ((key: string) => [string, RequestInit]) | null;
}

const withKey = (key?: string): Record<string, string> => (key ? { authorization: key } : {});

const PROBES: Record<'shortener' | 'images' | 'thumbs', Probe> = {
  shortener: {
    flag: 'shortener',
    protectedRequest: (key) => ['/create', jsonInit('POST', { url: 'https://example.com/e2e' }, withKey(key))],
    bodyRoute: ['POST', '/create'],
    wrongMethod: ['PUT', '/create', 'POST'],
    unknownRoute: ['/no/such/route/here', 1024],
    writeRequest: (key) => ['/create', jsonInit('POST', { url: `https://example.com/${Date.now()}` }, withKey(key))],
  },
  images: {
    flag: 'images_bulk',
    protectedRequest: (key) => ['/bulk', jsonInit('POST', { 'no.such': 1 }, withKey(key))],
    bodyRoute: ['POST', '/bulk'],
    wrongMethod: ['DELETE', '/categories', 'GET'],
    unknownRoute: ['/no/such/route/here', 1030],
    writeRequest: null,
  },
  thumbs: {
    flag: 'thumbs',
    protectedRequest: (key) => [`/${MD5}`, { headers: withKey(key) }],
    bodyRoute: ['PUT', `/${MD5}/gif`],
    wrongMethod: ['DELETE', `/${MD5}`, 'GET'],
    unknownRoute: ['/no/such/route/here', 1024],
    writeRequest: (key) => [`/${MD5}/gif`, { method: 'PUT', headers: withKey(key) }],
  },
};

let ctx: TestContext;
const services: Partial<Record<keyof typeof PROBES, ServiceProcess>> = {};

beforeAll(async () => {
  ctx = await createTestContext('e2ecommon');
  const migrated = await admin(ctx.env, ['migrate']);
  expect(migrated.code, migrated.stderr).toBe(0);
  const env = {
    ...ctx.env,
    LOG_LEVEL: 'warn',
    BOARD_URL: 'http://127.0.0.1:9',
    BOARD_STATIC_URL: 'http://127.0.0.1:9',
  };
  const started = await Promise.all(
    (Object.keys(PROBES) as Array<keyof typeof PROBES>).map((name) => startService(name, env)),
  );
  for (const service of started) services[service.name as keyof typeof PROBES] = service;
}, 90_000);

afterAll(async () => {
  await Promise.all(Object.values(services).map((service) => service.stop()));
  await ctx?.cleanup();
});

const url = (name: keyof typeof PROBES, path: string) => `${services[name]?.url ?? ''}${path}`;

describe.each(Object.keys(PROBES) as Array<keyof typeof PROBES>)('%s: common rules of API.md §1', (name) => {
  const probe = PROBES[name];
  const call = (key?: string) => {
    const [path, init] = probe.protectedRequest(key);
    return request(url(name, path), init);
  };

  it('answers /online and /metrics, with an X-Request-Id on every response', async () => {
    const online = await request(url(name, '/online'));
    expect(online.status).toBe(200);
    expect(online.body).toMatchObject({ success: true, uptime: expect.any(Number) });
    expect(online.headers.get('x-request-id')).toBeTruthy();
    const metrics = await request(`${services[name]?.metricsUrl ?? ''}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('http_requests_total{');
    expect(metrics.text).toContain('process_resident_memory_bytes');
    const hidden = await request(url(name, '/metrics'));
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ success: false, code: 1024 });
    expect((await request(url(name, '/no/such/route/here'))).headers.get('x-request-id')).toBeTruthy();
  });

  it('answers /ready with the state of its dependencies', async () => {
    const ready = await request(url(name, '/ready'));
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ success: true, ready: true, checks: { redis: 'up', database: 'up' } });
  });

  it('404 for an unknown route', async () => {
    const [path, code] = probe.unknownRoute;
    const res = await request(url(name, path));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: expect.any(String), code });
  });

  it('1025 with Allow for a wrong method on a known path', async () => {
    const [method, path, allow] = probe.wrongMethod;
    const res = await request(url(name, path), { method });
    expect(res.status).toBe(405);
    expect(res.body.code).toBe(1025);
    expect(res.headers.get('allow')).toContain(allow);
  });

  it('1026 for a malformed body and 1027 for one too large, after the key check', async () => {
    const [method, path] = probe.bodyRoute;
    const key = await createKey(ctx.env, probe.flag, ['--rate-limit-route', '0', '--rate-limit-global', '0']);
    const headers = { 'content-type': 'application/json', authorization: key };
    const malformed = await request(url(name, path), { method, headers, body: '{"url":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe(1026);
    const large = await request(
      url(name, path),
      jsonInit(method, { padding: 'x'.repeat(200 * 1024) }, { authorization: key }),
    );
    expect(large.status).toBe(413);
    expect(large.body.code).toBe(1027);
    // Auth → rate limit → read-only → body: without a key, what it sent does not matter.
    const anonymous = await request(url(name, path), {
      method,
      headers: { 'content-type': 'application/json' },
      body: '{"url":',
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe(1013);
  });

  it('1013 without a key, 1010 for an unknown one', async () => {
    const missing = await call();
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe(1013);
    const unknown = await call('pl_unknown');
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe(1010);
  });

  it('1022 for a key without the flag', async () => {
    const other = Object.values(PROBES).find((p) => p.flag !== probe.flag)?.flag ?? 'shortener';
    const res = await call(await createKey(ctx.env, other));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(1022);
  });

  it('1022 for a key created without flags, which only identifies its holder', async () => {
    const res = await call(await createKey(ctx.env, ''));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(1022);
  });

  it('1012 with the reason for a key disabled with bin/admin, 1011 for a revoked one', async () => {
    const disabled = await createKey(ctx.env, probe.flag);
    const id = /id=(\d+)/.exec(
      (await admin(ctx.env, ['apikey', 'list'])).stdout
        .split('\n')
        .filter((l) => l.includes('name="e2e"'))
        .pop() ?? '',
    )?.[1];
    expect(id).toBeDefined();
    expect((await admin(ctx.env, ['apikey', 'disable', id ?? '', '--reason', 'e2e abuse'])).code).toBe(0);
    const res = await call(disabled);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 1012, extra: { reason: 'e2e abuse' } });

    const revoked = await createKey(ctx.env, probe.flag);
    const revokedId = /id=(\d+)/.exec(
      (await admin(ctx.env, ['apikey', 'list'])).stdout.trim().split('\n').pop() ?? '',
    )?.[1];
    expect((await admin(ctx.env, ['apikey', 'revoke', revokedId ?? ''])).code).toBe(0);
    const gone = await call(revoked);
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe(1011);
  });

  it('1000 when the route bucket is exhausted, 1001 for the global one', async () => {
    const routeLimited = await createKey(ctx.env, probe.flag, ['--rate-limit-route', '1', '--rate-limit-global', '0']);
    expect((await call(routeLimited)).status).not.toBe(429);
    const route = await call(routeLimited);
    expect(route.status).toBe(429);
    expect(route.body).toMatchObject({ success: false, code: 1000, info: { limit: 1, remaining: 0 } });
    for (const header of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'x-ratelimit-reset-after',
      'x-ratelimit-bucket',
      'retry-after',
    ]) {
      expect(route.headers.get(header), header).not.toBeNull();
    }

    const globalLimited = await createKey(ctx.env, probe.flag, ['--rate-limit-route', '0', '--rate-limit-global', '1']);
    expect((await call(globalLimited)).status).not.toBe(429);
    const global = await call(globalLimited);
    expect(global.status).toBe(429);
    expect(global.body).toMatchObject({ code: 1001, info: { bucket: 'global', global: true } });
  });
});

describe('a key without flags', () => {
  it('is accepted where a key is optional and counted against its own limits', async () => {
    const key = await createKey(ctx.env, '', ['--rate-limit-route', '1']);
    const first = await request(url('images', '/categories'), { headers: { authorization: key } });
    expect(first.status).toBe(200);
    const second = await request(url('images', '/categories'), { headers: { authorization: key } });
    expect([second.status, second.body.code]).toEqual([429, 1000]);
    // Anonymous requests from the same address are not counted against the key.
    expect((await request(url('images', '/categories'))).status).toBe(200);
  });
});

describe('read-only switch flipped with bin/admin while the services run', () => {
  it('503 code 1003 on affected endpoints of every service, others keep working, and it lifts', async () => {
    const keys = {
      shortener: await createKey(ctx.env, 'shortener', ['--rate-limit-route', '0', '--rate-limit-global', '0']),
      thumbs: await createKey(ctx.env, 'thumbs', ['--rate-limit-route', '0', '--rate-limit-global', '0']),
    };
    expect((await admin(ctx.env, ['readonly', 'on'])).code).toBe(0);
    for (const name of ['shortener', 'thumbs'] as const) {
      const write = PROBES[name].writeRequest;
      if (!write) continue;
      await expect
        .poll(
          async () => {
            const [path, init] = write(keys[name]);
            return (await request(url(name, path), init)).body?.code;
          },
          { timeout: 5_000, interval: 100 },
        )
        .toBe(1003);
    }
    await expect
      .poll(async () => (await request(url('images', '/online'))).body.readOnly, { timeout: 5_000, interval: 100 })
      .toBe(true);
    expect((await request(url('images', '/categories'))).status).toBe(200);
    expect((await request(url('thumbs', `/${MD5}`), { headers: { authorization: keys.thumbs } })).status).toBe(200);

    expect((await admin(ctx.env, ['readonly', 'off'])).code).toBe(0);
    await expect
      .poll(
        async () => {
          const [path, init] = PROBES.shortener.writeRequest?.(keys.shortener) ?? ['/', {}];
          return (await request(url('shortener', path), init)).status;
        },
        { timeout: 5_000, interval: 100 },
      )
      .toBe(201);
  });
});

describe('internal errors', () => {
  it('code 0 with no SQL or stack when the database fails under a service', async () => {
    const key = await createKey(ctx.env, 'shortener', ['--rate-limit-route', '0', '--rate-limit-global', '0']);
    const { database } = loadBaseConfig(ctx.env);
    const connection = await mysql.createConnection({
      host: database.host,
      port: database.port,
      user: database.user,
      password: database.password,
      database: `${ctx.dbPrefix}shortener`,
    });
    const [tables] = await connection.query<mysql.RowDataPacket[]>('SHOW TABLES');
    // The table a create writes to (the first one listed may be another, such as short_url_visits).
    const table = tables.map((row) => String(Object.values(row)[0])).find((name) => name === 'short_urls');
    expect(table).toBeDefined();
    await connection.query(`RENAME TABLE \`${table}\` TO \`${table}_gone\``);
    try {
      const res = await request(
        url('shortener', '/create'),
        jsonInit('POST', { url: 'https://example.com/internal' }, { authorization: key }),
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        success: false,
        error: 'There was an internal error while attempting to perform that action.',
        code: 0,
      });
      expect(res.text).not.toMatch(/SELECT|INSERT|ER_|doesn't exist|\n\s+at /);
    } finally {
      await connection.query(`RENAME TABLE \`${table}_gone\` TO \`${table}\``);
      await connection.end();
    }
  });
});

describe('shutdown', () => {
  it('every service exits 0 on SIGTERM', async () => {
    for (const service of Object.values(services)) {
      expect(await service.stop(), `${service.name}\n${service.tail(2000)}`).toBe(0);
    }
  });
});
