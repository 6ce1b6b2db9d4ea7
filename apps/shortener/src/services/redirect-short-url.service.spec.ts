import { describe, expect, it } from 'vitest';
import { NOW, setup } from '../../test/short-url-service-fakes.js';
import { needsLookup, type VisitSource } from './redirect-short-url.service.js';

const SOURCE: VisitSource = {
  referer: 'https://News.Example.org:8443/a/b?c#d',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
  address: '203.0.113.9',
};

const link = (url: string, more: { expiresAt?: number; limited?: boolean } = {}) => ({
  url,
  expiresAt: more.expiresAt ?? null,
  limited: more.limited ?? false,
  protected: false,
  rules: null,
});

describe('RedirectShortUrlService.peek', () => {
  it('answers from memory only a well-formed code whose link redirects now; anything else it leaves to Redis and MySQL, or knows unknown', () => {
    const { redirect, cache } = setup();
    cache.warm.set('warm', link('https://example.com/w'));
    cache.warm.set('limited', link('https://example.com/l', { limited: true }));
    cache.warm.set('expired', link('https://example.com/e', { expiresAt: NOW.getTime() }));
    cache.warm.set('later', link('https://example.com/e', { expiresAt: NOW.getTime() + 1 }));
    expect(redirect.peek('warm')).toBe('https://example.com/w');
    expect(redirect.peek('later')).toBe('https://example.com/e');
    expect(needsLookup(redirect.peek('cold'))).toBe(true);
    expect(redirect.peek('limited')).toMatchObject({
      code: 'limited',
      held: link('https://example.com/l', { limited: true }),
    });
    expect(redirect.peek('expired')).toMatchObject({ code: 'expired', held: { expiresAt: NOW.getTime() } });
    expect(redirect.peek('no/such%code')).toBeNull();
    expect(redirect.peek('x'.repeat(51))).toBeNull();
    expect(redirect.peek('')).toBeNull();
  });

  it("never answers a reserved word from memory, whatever the cache holds (those paths are the app's own routes)", () => {
    const { redirect, cache } = setup();
    cache.warm.set('Create', link('https://example.com/stray'));
    expect(needsLookup(redirect.peek('Create'))).toBe(true);
  });
});

describe('RedirectShortUrlService.visit', () => {
  it('redirects an answer from memory without asking memory again, and counts only counted visits', async () => {
    const { redirect, cache, counted } = setup();
    cache.warm.set('warm', link('https://example.com/w'));
    const peek = redirect.peek('warm');
    expect(await redirect.visit('warm', peek, true, SOURCE)).toEqual({
      kind: 'redirect',
      url: 'https://example.com/w',
    });
    expect(await redirect.visit('warm', peek, false, SOURCE)).toEqual({
      kind: 'redirect',
      url: 'https://example.com/w',
    });
    expect(cache.calls).toEqual(['peek warm']);
    expect(counted).toEqual(['warm']);
  });

  it('tallies a counted visit with its raw referrer host, user agent and address, parsing nothing', async () => {
    const { redirect, cache, tallied } = setup();
    cache.warm.set('warm', link('https://example.com/w'));
    await redirect.visit('warm', redirect.peek('warm'), true, SOURCE);
    redirect.countVisit('warm', undefined, undefined, undefined);
    expect(tallied).toEqual([
      ['warm', 'News.Example.org:8443', SOURCE.userAgent, '203.0.113.9'],
      ['warm', '', '', ''],
    ]);
  });

  it('resolves a miss through Redis and MySQL once, from the one peek', async () => {
    const { redirect, cache, counted } = setup();
    cache.source = (code) => Promise.resolve(code === 'cold' ? link('https://example.com/c') : null);
    expect(await redirect.visit('cold', redirect.peek('cold'), true, SOURCE)).toEqual({
      kind: 'redirect',
      url: 'https://example.com/c',
    });
    expect(await redirect.visit('ghost', redirect.peek('ghost'), true, SOURCE)).toEqual({ kind: 'unknown' });
    expect(await redirect.visit('bad code', redirect.peek('bad code'), true, SOURCE)).toEqual({ kind: 'unknown' });
    expect(cache.calls).toEqual(['peek cold', 'fetch cold', 'peek ghost', 'fetch ghost']);
    expect(counted).toEqual(['cold']);
  });

  it('admits a held maxVisits link against MySQL, and fetches it again when memory dropped something since the peek', async () => {
    const { create, redirect, cache, counted } = setup();
    const { record } = await create.create({ url: 'https://example.com/m', editable: true, maxVisits: 1 });
    cache.warm.set(record.code, link('https://example.com/m', { limited: true }));
    cache.calls.length = 0;
    expect(await redirect.visit(record.code, redirect.peek(record.code), true, SOURCE)).toEqual({
      kind: 'redirect',
      url: 'https://example.com/m',
    });
    expect(cache.calls).toEqual([`peek ${record.code}`]);
    expect(counted).toEqual([record.code]);

    const peek = redirect.peek(record.code);
    cache.generation += 1;
    cache.source = () => Promise.resolve(link('https://example.com/m', { limited: true }));
    expect(await redirect.visit(record.code, peek, true, SOURCE)).toMatchObject({
      kind: 'expired',
      expired: { reason: 'maxVisits', maxVisits: 1 },
    });
    expect(cache.calls.slice(1)).toEqual([`peek ${record.code}`, `fetch ${record.code}`]);
  });
});
