import { RATE_LIMIT_BUCKETS } from '@pawlink/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, request, startHarness, uniqueUrl, type Harness } from './support.js';

// Public redirects and previews that must ask Redis/MySQL are limited per client IP (bucket
// `shortener.lookup`). TRUST_PROXY lets each test speak from an address of its own.
const LIMIT = 10;
let h: Harness;
beforeAll(async () => {
  h = await startHarness(
    'sh-lookups',
    { TRUST_PROXY: '1' },
    { limits: { buckets: { ...RATE_LIMIT_BUCKETS, 'shortener.lookup': { limit: LIMIT, windowMs: 60_000 } } } },
  );
});
afterAll(async () => {
  await h.close();
});

const from = (ip: string, method = 'GET'): RequestInit => ({ method, headers: { 'x-forwarded-for': ip } });
let counter = 0;
const madeUp = (): string => `nope${Date.now().toString(36)}x${counter++}`;

async function keyCount(): Promise<number> {
  let cursor = '0';
  let count = 0;
  do {
    const [next, keys] = await h.redis.scan(cursor, 'MATCH', `${h.ctx.redisPrefix}*`, 'COUNT', 1000);
    cursor = next;
    count += keys.length;
  } while (cursor !== '0');
  return count;
}

/** Remaining lookups of `ip`, as a counted miss reports them (the miss itself included). */
async function remainingAfterMiss(ip: string): Promise<number> {
  const res = await request(`${h.url}/${madeUp()}`, from(ip));
  expect(res.status).toBe(404);
  return Number(res.headers.get('x-ratelimit-remaining'));
}

describe('per-IP limit on redirect and preview lookups', () => {
  it('answers a flood of made-up codes from one address 429 after the limit, with bounded Redis keys', async () => {
    const ip = '203.0.113.7';
    const before = await keyCount();
    for (let i = 0; i < LIMIT; i++) {
      const res = await request(`${h.url}/${madeUp()}`, from(ip));
      expect(res.status).toBe(404);
      expect(res.text).toBe('Unknown short url code.');
    }
    for (let i = 0; i < 4 * LIMIT; i++) {
      const res = await request(`${h.url}/${madeUp()}`, from(ip));
      expect(res.status).toBe(429);
    }
    // One "unknown" marker per code that was looked up, plus the bucket's and the global window.
    expect((await keyCount()) - before).toBeLessThanOrEqual(LIMIT + 2);

    const limited = await request(`${h.url}/${madeUp()}`, from(ip));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(limited.headers.get('x-robots-tag')).toBe('noindex');
    expect(limited.text).toMatch(
      /^You have been rate limited on this route\. Try again in \d+ seconds\. \(code 1000\)$/,
    );
    expect(limited.headers.get('x-ratelimit-bucket')).toBe('shortener.lookup');
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const head = await request(`${h.url}/${madeUp()}`, from(ip, 'HEAD'));
    expect(head.status).toBe(429);
    expect(head.headers.get('x-ratelimit-bucket')).toBe('shortener.lookup');
  });

  it('limits previews from the same budget, with an HTML page under the preview CSP', async () => {
    const ip = '203.0.113.8';
    for (let i = 0; i < LIMIT; i++) expect((await request(`${h.url}/${madeUp()}+`, from(ip))).status).toBe(404);
    const limited = await request(`${h.url}/${madeUp()}+`, from(ip));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(limited.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(limited.text).toContain('<h1>Too many requests</h1>');
    expect(limited.text).toContain('(code 1000)');
    expect(limited.headers.get('x-ratelimit-bucket')).toBe('shortener.lookup');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The redirect shares the budget.
    expect((await request(`${h.url}/${madeUp()}`, from(ip))).status).toBe(429);
  });

  it('keeps answering a limited address from memory: warm redirects and cached previews', async () => {
    const ip = '203.0.113.9';
    const url = uniqueUrl();
    const { body } = await create(h, { url });
    const code = body.data.code;
    // Another address shows the preview first, so it is held in memory.
    expect((await request(`${h.url}/${code}+`, from('198.51.100.1'))).status).toBe(200);
    for (let i = 0; i <= LIMIT; i++) await request(`${h.url}/${madeUp()}`, from(ip));
    expect((await request(`${h.url}/${madeUp()}`, from(ip))).status).toBe(429);

    const redirect = await request(`${h.url}/${code}`, from(ip));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(url);
    expect(redirect.headers.get('x-ratelimit-remaining')).toBeNull();
    const preview = await request(`${h.url}/${code}+`, from(ip));
    expect(preview.status).toBe(200);
    expect(preview.text).toContain(`href="${url}"`);
    // Malformed codes are unknown without a lookup, so they are not limited either.
    expect((await request(`${h.url}/not_a_code`, from(ip))).status).toBe(404);
  });

  it('counts neither warm redirects nor cached previews, and each address has its own budget', async () => {
    const ip = '203.0.113.10';
    const { body } = await create(h, { url: uniqueUrl() });
    const code = body.data.code;
    expect(await remainingAfterMiss(ip)).toBe(LIMIT - 1);
    for (let i = 0; i < 5; i++) expect((await request(`${h.url}/${code}`, from(ip))).status).toBe(302);
    expect(await remainingAfterMiss(ip)).toBe(LIMIT - 2);

    // The first preview asks MySQL (counted); the next ones are answered from memory.
    const first = await request(`${h.url}/${code}+`, from(ip));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 3));
    for (let i = 0; i < 5; i++) expect((await request(`${h.url}/${code}+`, from(ip))).status).toBe(200);
    expect(await remainingAfterMiss(ip)).toBe(LIMIT - 4);

    expect(await remainingAfterMiss('203.0.113.11')).toBe(LIMIT - 1);
  });
});
