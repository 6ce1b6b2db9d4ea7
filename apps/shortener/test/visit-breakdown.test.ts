import { ConfigError, createLogger } from '@pawlink/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShortenerContainer } from '../src/container.js';
import { create, request, startHarness, uniqueUrl, type Harness, type Instance } from './support.js';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const SAFARI_IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0';
const SAMSUNG_TV =
  'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

interface Breakdown {
  visits: number;
  days: Array<{ date: string; visits: number }>;
  referrers: Array<{ host: string; visits: number }>;
  countries: Array<{ country: string; visits: number }>;
  browsers: Array<{ name: string; visits: number }>;
  os: Array<{ name: string; visits: number }>;
  devices: Record<'desktop' | 'mobile' | 'tablet' | 'other', number>;
}

// TRUST_PROXY=1: the visitor's address is the last X-Forwarded-For entry, in both lanes, as behind one proxy.
let h: Harness;
beforeAll(async () => {
  h = await startHarness('sh-breakdown', {
    TRUST_PROXY: '1',
    SHORTENER_VISITS_FLUSH_MS: '50',
    SHORTENER_VISITS_MOVE_MS: '100',
  });
});
afterAll(async () => {
  await h.close();
});

const statsOf = async (code: string, base = h.url): Promise<Breakdown> =>
  (await request<{ data: Breakdown }>(`${base}/${code}/stats`, { headers: { authorization: h.key } })).body.data;

/** Polls the stats until they count `visits` (visits travel in batches), then returns them. */
async function settled(code: string, visits: number): Promise<Breakdown> {
  let stats = await statsOf(code);
  for (let i = 0; i < 150 && stats.visits < visits; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stats = await statsOf(code);
  }
  return stats;
}

const sum = (list: Array<{ visits: number }>): number => list.reduce((total, entry) => total + entry.visits, 0);

/** Each breakdown's total, beside the period's visits: all equal when the breakdown is exact. */
const totals = (stats: Breakdown) => ({
  period: sum(stats.days),
  referrers: sum(stats.referrers),
  countries: sum(stats.countries),
  browsers: sum(stats.browsers),
  os: sum(stats.os),
  devices: Object.values(stats.devices).reduce((a, b) => a + b, 0),
});

const visit = (base: string, code: string, headers: Record<string, string>, method = 'GET') =>
  request(`${base}/${code}`, { method, headers });

describe('visit breakdown in GET /:code/stats', () => {
  it('counts where human visits came from, warm and cold: referrer host, country, browser, OS and device', async () => {
    const code = (await create(h, { url: uniqueUrl() })).body.data.code;
    // Answered before Express (a warm code): the fast lane picks the same X-Forwarded-For entry as req.ip.
    const fromPhone = {
      referer: 'https://News.Example.COM:8443/story?id=1',
      'user-agent': SAFARI_IPHONE,
      'x-forwarded-for': '10.9.9.9, 8.8.8.8',
    };
    expect((await visit(h.url, code, fromPhone)).status).toBe(302);
    expect((await visit(h.url, code, fromPhone)).status).toBe(302);
    await visit(h.url, code, { referer: 'not a url', 'user-agent': EDGE_WINDOWS, 'x-forwarded-for': '81.2.69.160' });
    await visit(h.url, code, { 'user-agent': SAFARI_IPAD, 'x-forwarded-for': '2a00:1450:4001::1' });
    await visit(h.url, code, { referer: 'https://t.co/x', 'user-agent': SAMSUNG_TV, 'x-forwarded-for': '10.1.2.3' });
    // Not visits: a bot, and a HEAD request.
    await visit(h.url, code, {
      referer: 'https://bots.example/',
      'user-agent': GOOGLEBOT,
      'x-forwarded-for': '8.8.4.4',
    });
    await visit(h.url, code, fromPhone, 'HEAD');
    // Through Express (a cold cache); behind the proxy the visitor is the last X-Forwarded-For entry.
    h.cache.clear();
    expect(
      (
        await visit(h.url, code, {
          referer: 'https://www.Google.com/search?q=x',
          'user-agent': FIREFOX_LINUX,
          'x-forwarded-for': '8.8.8.8, 1.1.1.1',
        })
      ).status,
    ).toBe(302);

    const stats = await settled(code, 6);
    expect(stats).toMatchObject({
      visits: 6,
      // Most visits first; equal counts by name.
      referrers: [
        { host: 'direct', visits: 2 },
        { host: 'news.example.com', visits: 2 },
        { host: 't.co', visits: 1 },
        { host: 'www.google.com', visits: 1 },
      ],
      countries: [
        { country: 'US', visits: 2 },
        { country: 'AU', visits: 1 },
        { country: 'DE', visits: 1 },
        { country: 'GB', visits: 1 },
        { country: 'unknown', visits: 1 },
      ],
      browsers: [
        { name: 'Safari', visits: 3 },
        { name: 'Firefox', visits: 1 },
        { name: 'Microsoft Edge', visits: 1 },
        { name: 'Samsung Internet for Android', visits: 1 },
      ],
      os: [
        { name: 'iOS', visits: 3 },
        { name: 'Linux', visits: 1 },
        { name: 'Tizen', visits: 1 },
        { name: 'Windows', visits: 1 },
      ],
      devices: { desktop: 2, mobile: 2, tablet: 1, other: 1 },
    });
  });

  it('adds every breakdown up to the visits exactly, under concurrent visits through two instances, at every moment', async () => {
    const code = (await create(h, { url: uniqueUrl() })).body.data.code;
    const second: Instance = await h.startInstance();
    const agents = [FIREFOX_LINUX, SAFARI_IPHONE, SAFARI_IPAD, EDGE_WINDOWS, SAMSUNG_TV];
    const referers = ['https://a.example/', 'https://B.example:81/x', '', 'garbage'];
    const addresses = ['8.8.8.8', '81.2.69.160', '2a00:1450:4001::1', '127.0.0.1'];
    const VISITS = 200;
    const reads: Array<ReturnType<typeof totals>> = [];
    let sending = true;
    const reader = (async () => {
      while (sending) reads.push(totals(await statsOf(code)));
    })();
    await Promise.all(
      Array.from({ length: VISITS }, (_, i) => {
        const headers: Record<string, string> = {
          'user-agent': agents[i % agents.length]!,
          'x-forwarded-for': addresses[i % addresses.length]!,
        };
        if (referers[i % referers.length] !== '') headers.referer = referers[i % referers.length]!;
        return visit(i % 2 === 0 ? h.url : second.url, code, headers);
      }),
    );
    await second.close();
    const stats = await settled(code, VISITS);
    sending = false;
    await reader;
    expect(stats.visits).toBe(VISITS);
    expect(totals(stats)).toEqual({
      period: VISITS,
      referrers: VISITS,
      countries: VISITS,
      browsers: VISITS,
      os: VISITS,
      devices: VISITS,
    });
    // Read while visits were on their way (memory → Redis → MySQL): never more or less in a breakdown than in the days.
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads)
      expect(read).toEqual({
        period: read.period,
        referrers: read.period,
        countries: read.period,
        browsers: read.period,
        os: read.period,
        devices: read.period,
      });
  });

  it('stops a process whose GEOIP_DB cannot be read, naming the variable', () => {
    const config = {
      ...h.config,
      shortener: {
        ...h.config.shortener,
        visits: { ...h.config.shortener.visits, geoIpDb: '/nonexistent/countries.mmdb' },
      },
    };
    const build = () =>
      createShortenerContainer({
        config,
        logger: createLogger('shortener', 'error', { silent: true }),
        redis: h.redis,
        subscriber: h.redis,
        dataSource: h.dataSource,
      });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/GEOIP_DB.*\/nonexistent\/countries\.mmdb/);
  });
});

describe('the visitor address', () => {
  let quiet: Harness;
  beforeAll(async () => {
    // Flushes and moves only when told, so what Redis holds can be read between the two.
    quiet = await startHarness('sh-no-address', {
      TRUST_PROXY: '1',
      SHORTENER_VISITS_FLUSH_MS: '60000',
      SHORTENER_VISITS_MOVE_MS: '600000',
    });
  });
  afterAll(async () => {
    await quiet.close();
  });

  /** Every key and value under the harness's Redis prefix, as text. */
  async function redisText(): Promise<string> {
    const keys = await quiet.redis.keys(`${quiet.ctx.redisPrefix}*`);
    const parts: string[] = [...keys];
    for (const key of keys) {
      const type = await quiet.redis.type(key);
      if (type === 'hash') parts.push(JSON.stringify(await quiet.redis.hgetall(key)));
      else if (type === 'set') parts.push(JSON.stringify(await quiet.redis.smembers(key)));
      else if (type === 'string') parts.push((await quiet.redis.get(key)) ?? '');
      else if (type === 'list') parts.push(JSON.stringify(await quiet.redis.lrange(key, 0, -1)));
      else if (type === 'zset') parts.push(JSON.stringify(await quiet.redis.zrange(key, 0, -1)));
    }
    return parts.join('\n');
  }

  /** Every row of the shortener's tables, as text. */
  async function mysqlText(): Promise<string> {
    const tables: Array<Record<string, string>> = await quiet.dataSource.query('SHOW TABLES');
    const parts: string[] = [];
    for (const row of tables)
      parts.push(JSON.stringify(await quiet.dataSource.query(`SELECT * FROM \`${Object.values(row)[0]}\``)));
    return parts.join('\n');
  }

  it('is stored nowhere: Redis holds the country, and so does MySQL after the move', async () => {
    const code = (await create(quiet, { url: uniqueUrl() })).body.data.code;
    const addresses = ['8.8.8.8', '2a00:1450:4001::1'];
    for (const address of addresses)
      await visit(quiet.url, code, { 'user-agent': FIREFOX_LINUX, 'x-forwarded-for': address });
    const { visitTally, visitMover } = quiet.first.services;
    await visitTally.flush();
    const inRedis = await redisText();
    expect(inRedis).toContain('c:US');
    expect(inRedis).toContain('c:DE');
    for (const address of addresses) expect(inRedis).not.toContain(address);
    await visitMover.move();
    const inMysql = await mysqlText();
    expect(inMysql).toContain('"value":"US"');
    for (const address of addresses) expect(inMysql).not.toContain(address);
    expect(await statsOfQuiet(code)).toMatchObject({
      visits: 2,
      countries: [
        { country: 'DE', visits: 1 },
        { country: 'US', visits: 1 },
      ],
    });
  });

  const statsOfQuiet = async (code: string): Promise<Breakdown> =>
    (await request<{ data: Breakdown }>(`${quiet.url}/${code}/stats`, { headers: { authorization: quiet.key } })).body
      .data;
});

describe('with the breakdown off (SHORTENER_VISIT_BREAKDOWN=false)', () => {
  let off: Harness;
  beforeAll(async () => {
    off = await startHarness('sh-breakdown-off', {
      SHORTENER_VISIT_BREAKDOWN: 'false',
      GEOIP_DB: '/not/read/when/off.mmdb',
      SHORTENER_VISITS_FLUSH_MS: '50',
      SHORTENER_VISITS_MOVE_MS: '100',
    });
  });
  afterAll(async () => {
    await off.close();
  });

  it('counts visits alone; the breakdown shows them as unknown / other', async () => {
    const code = (await create(off, { url: uniqueUrl() })).body.data.code;
    await visit(off.url, code, { referer: 'https://a.example/', 'user-agent': SAFARI_IPHONE });
    await visit(off.url, code, { 'user-agent': FIREFOX_LINUX });
    let stats = (
      await request<{ data: Breakdown }>(`${off.url}/${code}/stats`, { headers: { authorization: off.key } })
    ).body.data;
    for (let i = 0; i < 100 && stats.visits < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = (await request<{ data: Breakdown }>(`${off.url}/${code}/stats`, { headers: { authorization: off.key } }))
        .body.data;
    }
    expect(stats).toMatchObject({
      visits: 2,
      referrers: [{ host: 'unknown', visits: 2 }],
      countries: [{ country: 'unknown', visits: 2 }],
      browsers: [{ name: 'other', visits: 2 }],
      os: [{ name: 'other', visits: 2 }],
      devices: { desktop: 0, mobile: 0, tablet: 0, other: 2 },
    });
  });
});
