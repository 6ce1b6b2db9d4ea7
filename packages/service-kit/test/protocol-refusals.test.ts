import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, jsonInit, request, type TestContext } from '@pawlink/test-kit';
import { setReadOnly } from '../src/index.js';
import { startKitApp } from './kit-app.js';

/**
 * docs/api.md §1 (protocol-level answers) through the server runService starts (`listen()`): what node:http would refuse with an
 * empty body is answered with the JSON failure shape, wherever the connection still allows it.
 */

let ctx: TestContext;
let kit: Awaited<ReturnType<typeof startKitApp>>;

beforeAll(async () => {
  ctx = await createTestContext('kitproto');
  // Short timeouts, so a late request is refused within the test (the server checks every second).
  kit = await startKitApp(ctx, { listen: { limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } } });
});

afterAll(async () => {
  await kit.close();
  await ctx.cleanup();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after it. */
  closed: boolean;
}

/** Writes `chunks` on a fresh connection (with `pauseMs` between them) and reads until the server closes or `waitMs` passes. */
function exchange(
  port: number,
  chunks: string[],
  { pauseMs = 0, waitMs = 5000, host = '127.0.0.1' } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const received: Buffer[] = [];
    let closed = false;
    const finish = (): void => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = (split === -1 ? text : text.slice(0, split)).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: split === -1 ? '' : text.slice(split + 4),
        closed,
      });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, waitMs);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('error', (error) => {
      if (received.length === 0) reject(error);
    });
    socket.on('connect', () => {
      void (async () => {
        for (const [index, chunk] of chunks.entries()) {
          if (index > 0 && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
          if (!socket.destroyed) socket.write(chunk);
        }
      })();
    });
  });
}

const failure = (code: number) => ({ success: false, error: expect.any(String), code });

function expectJsonRefusal(answer: RawAnswer, status: number, code: number): Record<string, unknown> {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-request-id']).toMatch(/^[\w.:-]+$/);
  expect(answer.headers.connection).toBe('close');
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body).toEqual(failure(code));
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  return body;
}

const repeat = (length: number): string => 'a'.repeat(length);

describe('request target and header fields over the limits', () => {
  it('414 code 1015 for a target over 8 KiB, whether node or the kit sees it first; 8 KiB exactly is read', async () => {
    const atLimit = await request(`${kit.url}/things/${repeat(8192 - '/things/'.length)}`);
    expect(atLimit.status).toBe(200);
    for (const length of [8193, 30_000, 100_000]) {
      const res = await request(`${kit.url}/things/${repeat(length - '/things/'.length)}`);
      expect(res.status, String(length)).toBe(414);
      expect(res.body, String(length)).toEqual(failure(1015));
      expect(res.body.error).toContain('8192 bytes');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('connection')).toBe('close');
    }
  });

  it('431 code 1015 for header fields over 16 KiB in all; 16 KiB exactly is read', async () => {
    // Names and values count, as node:http counts them: Host, Connection and the pad below.
    const host = new URL(kit.url).host;
    const others = 'Host'.length + host.length + 'Connection'.length + 'close'.length + 'X-Pad'.length;
    const head = (pad: number) =>
      `GET /online HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nX-Pad: ${repeat(pad)}\r\n\r\n`;
    const fits = await exchange(kit.port, [head(16 * 1024 - others)]);
    expect(fits.status).toBe(200);
    const over = await exchange(kit.port, [head(16 * 1024 - others + 1)]);
    expectJsonRefusal(over, 431, 1015);
    for (const length of [17_000, 40_000]) {
      const res = await request(`${kit.url}/online`, { headers: { 'x-pad': repeat(length) } });
      expect(res.status, String(length)).toBe(431);
      expect(res.body, String(length)).toEqual(failure(1015));
      expect(res.body.error).toContain('16384 bytes');
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('answers a head node:http refuses on a bare connection in JSON too, and closes it', async () => {
    const target = await exchange(kit.port, [`GET /${repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expectJsonRefusal(target, 414, 1015);
    expect(target.closed).toBe(true);
    const fields = await exchange(kit.port, [`GET /online HTTP/1.1\r\nHost: x\r\nX-Pad: ${repeat(40_000)}\r\n\r\n`]);
    expectJsonRefusal(fields, 431, 1015);
    expect(fields.closed).toBe(true);
  });
});

describe('requests not received in time', () => {
  it('408 code 1016 for headers that do not arrive in time, and closes the connection', async () => {
    const answer = await exchange(kit.port, ['GET /online HTTP/1.1\r\nHost: x\r\n'], { waitMs: 8000 });
    expectJsonRefusal(answer, 408, 1016);
    expect(answer.closed).toBe(true);
  });

  it("408 code 1016 for a body that does not arrive in time, answered with the request's own id", async () => {
    const head =
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20\r\nX-Request-Id: slow-body-1\r\n\r\n';
    const answer = await exchange(kit.port, [head, '{"a":'], { waitMs: 8000 });
    expectJsonRefusal(answer, 408, 1016);
    expect(answer.headers['x-request-id']).toBe('slow-body-1');
    expect(answer.closed).toBe(true);
  });
});

describe('requests that cannot be parsed', () => {
  it.each([
    ['a request line that is not one', 'GARBAGE\r\n\r\n'],
    ['an unknown method', 'FOO /online HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a space in the target', 'GET /on line HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an unknown HTTP version', 'GET /online HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['a header name with a space', 'GET /online HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
    ],
    [
      'a broken chunk',
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n',
    ],
  ])('400 code 1026 for %s', async (_name, data) => {
    const answer = await exchange(kit.port, [data]);
    const body = expectJsonRefusal(answer, 400, 1026);
    expect(body.error).toMatch(/^Malformed request: /);
    expect(answer.closed).toBe(true);
  });

  it('400 code 1026 for an HTTP/1.1 request without Host; HTTP/1.0 needs none', async () => {
    const missing = await exchange(kit.port, ['GET /online HTTP/1.1\r\n\r\n']);
    const body = expectJsonRefusal(missing, 400, 1026);
    expect(body.error).toContain('Host');
    const old = await exchange(kit.port, ['GET /online HTTP/1.0\r\n\r\n']);
    expect(old.status).toBe(200);
    expect(JSON.parse(old.body)).toMatchObject({ success: true });
  });

  it('400 code 1026 for CONNECT: this is no proxy', async () => {
    const answer = await exchange(kit.port, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']);
    const body = expectJsonRefusal(answer, 400, 1026);
    expect(body.error).toContain('CONNECT');
  });

  it('answers a request with an expectation it does not meet as if it had none, not with an empty 417', async () => {
    const known = await exchange(kit.port, [
      'GET /online HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n',
    ]);
    expect(known.status).toBe(200);
    expect(JSON.parse(known.body)).toMatchObject({ success: true });
    const unknown = await exchange(kit.port, [
      'GET /nope HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nConnection: close\r\n\r\n',
    ]);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual(failure(1024));
  });
});

describe('bodies the service does not decode', () => {
  const post = (headers: Record<string, string>, body: string | Buffer) =>
    request(`${kit.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it.each(['zstd', 'compress', 'x-gzip', 'gzip, br', 'identity, gzip'])(
    '415 code 1014 for Content-Encoding %s, naming it',
    async (encoding) => {
      const res = await post({ 'content-encoding': encoding }, '{"a":1}');
      expect(res.status).toBe(415);
      expect(res.body).toEqual(failure(1014));
      expect(res.body.error).toContain(JSON.stringify(encoding));
    },
  );

  it.each([
    ['application/json; charset=latin1', 'latin1'],
    ['application/json; charset=ISO-8859-1', 'iso-8859-1'],
    ['application/json; charset="utf-16"', 'utf-16'],
    ['application/x-www-form-urlencoded; charset=windows-1252', 'windows-1252'],
  ])('415 code 1014 for %s, naming the charset', async (contentType, charset) => {
    const res = await post({ 'content-type': contentType }, contentType.includes('json') ? '{"a":1}' : 'a=1');
    expect(res.status).toBe(415);
    expect(res.body).toEqual(failure(1014));
    expect(res.body.error).toContain(JSON.stringify(charset));
  });

  it('decodes gzip, deflate and br, and reads UTF-8 JSON and UTF-8 or ISO-8859-1 forms', async () => {
    const json = '{"fox":"🦊"}';
    for (const [encoding, bytes] of [
      ['gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['br', brotliCompressSync(json)],
      ['identity', Buffer.from(json)],
    ] as const) {
      const res = await post({ 'content-encoding': encoding }, bytes);
      expect(res.body, encoding).toEqual({ success: true, body: { fox: '🦊' } });
    }
    expect((await post({ 'content-type': 'application/json; charset=UTF-8' }, json)).body).toEqual({
      success: true,
      body: { fox: '🦊' },
    });
    const latin1Form = await post(
      { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' },
      'name=caf%E9',
    );
    expect(latin1Form.body).toEqual({ success: true, body: { name: 'café' } });
  });

  it('keeps the route guards first (read-only before the body), and an unknown route stays 1024', async () => {
    await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], true);
    await kit.readOnly.refresh();
    try {
      const res = await request(`${kit.url}/write`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
        body: 'x',
      });
      expect([res.status, res.body.code]).toEqual([503, 1003]);
    } finally {
      await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], false);
      await kit.readOnly.refresh();
    }
    const writable = await request(`${kit.url}/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
      body: 'x',
    });
    expect([writable.status, writable.body.code]).toEqual([415, 1014]);
    const unknown = await request(`${kit.url}/no/such/route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
      body: 'x',
    });
    expect([unknown.status, unknown.body.code]).toEqual([404, 1024]);
  });

  it('ignores the encoding of a request without a body', async () => {
    const res = await request(`${kit.url}/write`, { method: 'POST', headers: { 'content-encoding': 'zstd' } });
    expect(res.status).toBe(201);
  });
});

describe('Retry-After on every 503', () => {
  it('read-only (1003) says when to ask again', async () => {
    await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], true);
    await kit.readOnly.refresh();
    try {
      const res = await request(`${kit.url}/write`, jsonInit('POST', {}));
      expect([res.status, res.body.code]).toEqual([503, 1003]);
      expect(res.headers.get('retry-after')).toBe('60');
    } finally {
      await setReadOnly(kit.redis, kit.config.redis.prefix, ['shortener'], false);
      await kit.readOnly.refresh();
    }
  });
});

describe('HOST', () => {
  it('serves on an IPv6 address, `::` answering IPv4 and IPv6 clients alike', async () => {
    const v6 = await startKitApp(ctx, { listen: { host: '::' } });
    try {
      for (const url of [`http://[::1]:${v6.port}/online`, `http://127.0.0.1:${v6.port}/online`]) {
        const res = await request(url);
        expect(res.status, url).toBe(200);
        expect(res.body, url).toMatchObject({ success: true });
      }
    } finally {
      await v6.close();
    }
  });

  it('on 127.0.0.1 it is not reachable on other addresses of the machine', async () => {
    // ::1 is another address of this machine; a server bound to 127.0.0.1 must not answer there.
    await expect(fetch(`http://[::1]:${kit.port}/online`)).rejects.toThrow();
  });
});
