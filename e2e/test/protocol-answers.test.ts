import net from 'node:net';
import {
  admin,
  createKey,
  createTestContext,
  jsonInit,
  request,
  startService,
  type JsonResponse,
  type ServiceProcess,
  type TestContext,
} from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * API.md §6.1 and §6.4 on every service, through the real processes started with `HOST=::`:
 * reachable over IPv4 and IPv6; protocol-level refusals in the JSON failure shape; 415 1014 for a
 * body it does not decode; Retry-After on a read-only 503. Answers read through `request()` are
 * held to each service's OpenAPI document, protocol fallbacks included.
 */

const MD5 = '0123456789abcdef0123456789abcdef';
type Name = 'shortener' | 'images' | 'thumbs';

/** The service's body-reading route and the key flag it needs. */
const BODY_ROUTES: Record<Name, { flag: string; method: string; path: string }> = {
  shortener: { flag: 'shortener', method: 'POST', path: '/create' },
  images: { flag: 'images_bulk', method: 'POST', path: '/bulk' },
  thumbs: { flag: 'thumbs', method: 'PUT', path: `/${MD5}/gif` },
};

let ctx: TestContext;
const services: Partial<Record<Name, ServiceProcess>> = {};

beforeAll(async () => {
  ctx = await createTestContext('e2eproto');
  const migrated = await admin(ctx.env, ['migrate']);
  expect(migrated.code, migrated.stderr).toBe(0);
  const env = {
    ...ctx.env,
    HOST: '::',
    HTTP_HEADERS_TIMEOUT_MS: '500',
    HTTP_REQUEST_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'warn',
    BOARD_URL: 'http://127.0.0.1:9',
    BOARD_STATIC_URL: 'http://127.0.0.1:9',
  };
  const started = await Promise.all((Object.keys(BODY_ROUTES) as Name[]).map((name) => startService(name, env)));
  for (const service of started) services[service.name as Name] = service;
}, 90_000);

afterAll(async () => {
  await Promise.all(Object.values(services).map((service) => service.stop()));
  await ctx?.cleanup();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `data` on a fresh connection and reads until the server closes it (or `waitMs`). */
function exchange(port: number, data: string, waitMs = 6000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    const received: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error) => {
      if (received.length === 0) reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
  });
}

const url = (name: Name, path: string): string => `${services[name]?.url ?? ''}${path}`;

describe.each(Object.keys(BODY_ROUTES) as Name[])('%s', (name) => {
  const port = (): number => services[name]!.port;

  it('listens on HOST=:: for IPv4 and IPv6 clients', async () => {
    for (const address of [`http://127.0.0.1:${port()}/online`, `http://[::1]:${port()}/online`]) {
      const res = await fetch(address);
      expect(res.status, address).toBe(200);
      expect(await res.json(), address).toMatchObject({ success: true });
    }
  });

  it.each([
    ['slow headers', 408, 1016, 'GET /online HTTP/1.1\r\nHost: x\r\n'],
    ['a target node refuses', 414, 1015, `GET /${'a'.repeat(30_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    [
      'header fields node refuses',
      431,
      1015,
      `GET /online HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(30_000)}\r\n\r\n`,
    ],
    ['an unparsable request line', 400, 1026, 'GARBAGE\r\n\r\n'],
    ['an HTTP/1.1 request without Host', 400, 1026, 'GET /online HTTP/1.1\r\n\r\n'],
  ] as const)(
    'answers %s in JSON: %i code %i, with X-Request-Id, closing the connection',
    async (_what, status, code, data) => {
      const answer = await exchange(port(), data);
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({ success: false, error: expect.any(String), code });
    },
  );

  it('answers a target over 8 KiB 414 and header fields over 16 KiB 431, as its OpenAPI document says', async () => {
    const long = await request(url(name, `/online?pad=${'a'.repeat(9000)}`));
    expect([long.status, long.body.code]).toEqual([414, 1015]);
    const large = await request(url(name, '/online'), { headers: { 'x-pad': 'a'.repeat(17_000) } });
    expect([large.status, large.body.code]).toEqual([431, 1015]);
  });

  it('answers a body it does not decode 415 code 1014 naming what was sent, after the key check', async () => {
    const route = BODY_ROUTES[name];
    const key = await createKey(ctx.env, route.flag, ['--rate-limit-route', '0', '--rate-limit-global', '0']);
    const encoded = await request(
      url(name, route.path),
      jsonInit(route.method, { a: 1 }, { authorization: key, 'content-encoding': 'zstd' }),
    );
    expect([encoded.status, encoded.body.code]).toEqual([415, 1014]);
    expect(encoded.body.error).toContain('"zstd"');
    const latin1 = await request(url(name, route.path), {
      method: route.method,
      headers: { authorization: key, 'content-type': 'application/json; charset=latin1' },
      body: '{}',
    });
    expect([latin1.status, latin1.body.code]).toEqual([415, 1014]);
    expect(latin1.body.error).toContain('"latin1"');
    const anonymous = await request(
      url(name, route.path),
      jsonInit(route.method, { a: 1 }, { 'content-encoding': 'zstd' }),
    );
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 1013]);
  });
});

describe('Retry-After on every 503', () => {
  it('read-only mode (1003) on the shortener and thumbs carries Retry-After', async () => {
    const keys = { shortener: await createKey(ctx.env, 'shortener'), thumbs: await createKey(ctx.env, 'thumbs') };
    expect((await admin(ctx.env, ['readonly', 'on'])).code).toBe(0);
    try {
      const writes: Array<[Name, () => Promise<JsonResponse<{ code?: number }>>]> = [
        [
          'shortener',
          () =>
            request(
              url('shortener', '/create'),
              jsonInit('POST', { url: 'https://example.com/ro' }, { authorization: keys.shortener }),
            ),
        ],
        [
          'thumbs',
          () => request(url('thumbs', `/${MD5}/gif`), { method: 'PUT', headers: { authorization: keys.thumbs } }),
        ],
      ];
      for (const [name, write] of writes) {
        await expect.poll(async () => (await write()).body?.code, { timeout: 5_000, interval: 100 }).toBe(1003);
        const res = await write();
        expect(res.status, name).toBe(503);
        expect(res.headers.get('retry-after'), name).toBe('60');
      }
    } finally {
      expect((await admin(ctx.env, ['readonly', 'off'])).code).toBe(0);
    }
  });

  it('a board that cannot be reached (1067) carries Retry-After', async () => {
    const key = await createKey(ctx.env, 'thumbs');
    const res = await request(url('thumbs', '/123'), { headers: { authorization: key } });
    expect([res.status, res.body.code]).toEqual([503, 1067]);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
