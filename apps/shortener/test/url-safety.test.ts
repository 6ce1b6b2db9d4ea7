import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startHarness, type Harness } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-urls');
});
afterAll(async () => {
  await h.close();
});

const HOSTILE: string[] = [
  // IPv4 loopback in every spelling the WHATWG parser accepts
  'http://127.0.0.1/',
  'http://127.0.0.1.:8080/x',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7F.0x0.0x0.0x1/',
  'http://0177.0.0.1/',
  'http://017700000001/',
  'http://127.1/',
  'http://0x7f.1/',
  'http://%31%32%37.0.0.1/',
  'http://①②⑦.０.０.１/',
  // private, link-local, CGNAT, unspecified, multicast, broadcast, reserved
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://0/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://192.0.2.10/',
  'http://198.18.0.1/',
  'http://240.0.0.1/',
  // IPv6, bracketed, including IPv4-mapped and IPv4-compatible forms
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::127.0.0.1]/',
  'http://[::192.168.0.1]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://[fd12:3456:789a::1]/',
  'http://[ff02::1]/',
  'http://[2001:db8::1]/',
  'http://[64:ff9b::7f00:1]/',
  // local names
  'http://localhost/',
  'http://LOCALHOST:3001/',
  'http://localhost./',
  // empty labels: not an IPv4 form to the parser, nor equal to a blocked name, yet the same host
  'http://localhost../',
  'http://printer.local../',
  'http://127.0.0.1../',
  'http://0x7f.1../',
  'http://app..localhost/',
  'http://app.localhost/',
  'http://printer.local/',
  'http://metadata.google.internal/',
  'http://intranet/',
  // schemes and shapes we do not redirect to
  'javascript:alert(1)',
  'JavaScript://example.com/%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'gopher://example.com/',
  'mailto:someone@example.com',
  'ws://example.com/',
  '//example.com/path',
  'example.com',
  'http:example.com',
  'https://',
  // credentials
  'https://user:pass@example.com/',
  'https://example.com@evil.example/',
  // control characters and whitespace (header injection)
  'https://example.com/\r\nSet-Cookie: a=b',
  'https://example.com/a\nb',
  'https://example.com/\tx',
  'https://example.com/a b',
  ' https://example.com/',
  'https://example.com/\u0000',
  'https://example.com/\u200bx',
  'https://example.com/\u2028x',
  // too long: 2049 characters
  `https://example.com/${'a'.repeat(2049 - 'https://example.com/'.length)}`,
];

describe('URL safety on POST /create', () => {
  it('lists at least 20 hostile urls', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(20);
    expect(HOSTILE.at(-1)).toHaveLength(2049);
  });

  it.each(HOSTILE.map((url) => [JSON.stringify(url).slice(0, 80), url]))(
    'refuses %s with 422 1073',
    async (_label, url) => {
      const res = await create(h, { url });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code: 1073 });
    },
  );

  it('accepts public hosts, ftp, public IP literals and exactly 2048 characters', async () => {
    const accepted = [
      'https://example.org/a?b=c#d',
      'ftp://ftp.example.org/pub/file.txt',
      'http://8.8.8.8/',
      'http://[2606:4700:4700::1111]/',
      `https://example.net/${'b'.repeat(2048 - 'https://example.net/'.length)}`,
    ];
    for (const url of accepted) {
      const res = await create(h, { url });
      expect(res.status, url).toBe(201);
      expect(res.body.data.url).toBe(url);
    }
  });

  it('stores IDN hosts as punycode and redirects there', async () => {
    const res = await create(h, { url: 'https://bücher.example/straße' });
    expect(res.status).toBe(201);
    expect(res.body.data.url).toBe('https://xn--bcher-kva.example/stra%C3%9Fe');
    const redirect = await fetch(`${h.url}/${res.body.data.code}`, { redirect: 'manual' });
    expect(redirect.headers.get('location')).toBe('https://xn--bcher-kva.example/stra%C3%9Fe');
  });

  it('treats the normalised form as the same url (one entry)', async () => {
    const first = await create(h, { url: 'HTTPS://Example.COM:443/same' }, { editable: false });
    expect(first.status).toBe(201);
    expect(first.body.data.url).toBe('https://example.com/same');
    const second = await create(h, { url: 'https://example.com/same' }, { editable: false });
    expect(second.status).toBe(200);
    expect(second.body.data.code).toBe(first.body.data.code);
  });
});
