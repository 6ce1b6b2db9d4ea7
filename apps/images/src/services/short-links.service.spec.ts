import { describe, expect, it } from 'vitest';
import type { MissingShortUrl } from '../repositories/image-short-url.repository.js';
import type { ShortLinkAnswer, ShortLinkClient } from '../repositories/short-link.repository.js';
import { ShortLinksService } from './short-links.service.js';

const id = (n: number): string => n.toString(16).padStart(32, '0');

class FakeShortUrls {
  readonly rows = new Map<string, { ext: string; shortUrl: string | null }>();
  add(n: number, shortUrl: string | null = null): void {
    this.rows.set(id(n), { ext: 'png', shortUrl });
  }
  missing(afterId: string, limit: number): Promise<MissingShortUrl[]> {
    const ids = [...this.rows.entries()]
      .filter(([key, row]) => row.shortUrl === null && key > afterId)
      .map(([key, row]) => ({ id: key, ext: row.ext }));
    return Promise.resolve(ids.sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, limit));
  }
  countMissing(): Promise<number> {
    return Promise.resolve([...this.rows.values()].filter((r) => r.shortUrl === null).length);
  }
  fill(links: ReadonlyMap<string, string>): Promise<string[]> {
    const stored: string[] = [];
    for (const [key, url] of links) {
      const row = this.rows.get(key);
      if (row && row.shortUrl === null) {
        row.shortUrl = url;
        stored.push(key);
      }
    }
    return Promise.resolve(stored);
  }
}

class FakeRecords {
  readonly links = new Map<string, string>();
  setShortUrls(links: ReadonlyMap<string, string>): Promise<void> {
    for (const [key, url] of links) this.links.set(key, url);
    return Promise.resolve();
  }
}

/** Answers from a script: each call takes the next answer (the last one repeats); `null` makes a link. */
class ScriptedShortener implements ShortLinkClient {
  readonly asked: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly script: Array<Exclude<ShortLinkAnswer, { kind: 'created' }> | null> = [null]) {}
  async create(targetUrl: string): Promise<ShortLinkAnswer> {
    this.asked.push(targetUrl);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    const next = this.script.length > 1 ? this.script.shift()! : this.script[0]!;
    return next ?? { kind: 'created', shortUrl: `https://s.test/${targetUrl.slice(-10)}` };
  }
}

function setup(
  shortener: ScriptedShortener | null,
  options: { images?: number; batchSize?: number; concurrency?: number } = {},
) {
  const shortUrls = new FakeShortUrls();
  for (let n = 1; n <= (options.images ?? 5); n++) shortUrls.add(n);
  const records = new FakeRecords();
  const service = new ShortLinksService({
    shortUrls,
    records,
    shortener,
    imagesMediaUrl: 'https://media.test/images',
    concurrency: options.concurrency ?? 2,
    batchSize: options.batchSize ?? 3,
  });
  return { shortUrls, records, service };
}

describe('ShortLinksService', () => {
  it('links a batch of images to their public URLs, in MySQL and the cache, and says where the next batch starts', async () => {
    const shortener = new ScriptedShortener();
    const { service, shortUrls, records } = setup(shortener);
    const first = await service.fillBatch('');
    expect(first).toEqual({ filled: 3, next: id(3) });
    expect(shortener.asked.sort()).toEqual([1, 2, 3].map((n) => `https://media.test/images/${id(n)}.png`));
    expect(shortUrls.rows.get(id(1))!.shortUrl).toBe(`https://s.test/${id(1).slice(-6)}.png`);
    expect(records.links.get(id(2))).toBe(shortUrls.rows.get(id(2))!.shortUrl);
    expect(await service.fillBatch(first.next!)).toEqual({ filled: 2, next: null });
    expect(await service.countMissing()).toBe(0);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const shortener = new ScriptedShortener();
    const { service } = setup(shortener, { images: 10, batchSize: 10, concurrency: 3 });
    await service.fillBatch('');
    expect(shortener.asked).toHaveLength(10);
    expect(shortener.maxInFlight).toBe(3);
  });

  it('stops asking at the first failure, keeps the links made, and starts the next batch where this one began', async () => {
    const shortener = new ScriptedShortener([
      null,
      { kind: 'failed', reason: 'the shortener is unreachable (ECONNREFUSED)' },
    ]);
    const { service, shortUrls } = setup(shortener, { images: 5, batchSize: 5, concurrency: 1 });
    const batch = await service.fillBatch('');
    expect(batch).toEqual({
      filled: 1,
      next: '',
      stop: { kind: 'failed', reason: 'the shortener is unreachable (ECONNREFUSED)' },
    });
    expect(shortener.asked).toHaveLength(2);
    expect(await shortUrls.countMissing()).toBe(4);
  });

  it('stops at a 429 with its wait', async () => {
    const { service } = setup(new ScriptedShortener([{ kind: 'rate-limited', retryAfterMs: 1500 }, null]), {
      concurrency: 1,
    });
    expect(await service.fillBatch('')).toEqual({
      filled: 0,
      next: '',
      stop: { kind: 'rate-limited', retryAfterMs: 1500 },
    });
  });

  it('starts no request once told to stop', async () => {
    const shortener = new ScriptedShortener();
    const { service } = setup(shortener, { concurrency: 1 });
    let calls = 0;
    const batch = await service.fillBatch('', () => ++calls > 1);
    expect(shortener.asked).toHaveLength(1);
    expect(batch).toEqual({ filled: 1, next: '' });
  });

  it('does not overwrite a link stored meanwhile (a sidecar, another filler)', async () => {
    const { service, shortUrls, records } = setup(new ScriptedShortener(), { images: 1 });
    const fill = shortUrls.fill.bind(shortUrls);
    shortUrls.fill = (links) => {
      shortUrls.rows.get(id(1))!.shortUrl = 'https://other.test/x';
      return fill(links);
    };
    expect(await service.fillBatch('')).toEqual({ filled: 0, next: null });
    expect(shortUrls.rows.get(id(1))!.shortUrl).toBe('https://other.test/x');
    expect(records.links.size).toBe(0);
  });

  it('backfills everything, waiting out 429s, and reports the counts', async () => {
    const waits: number[] = [];
    const progress: Array<[number, number]> = [];
    const { service } = setup(new ScriptedShortener([null, { kind: 'rate-limited', retryAfterMs: 700 }, null]), {
      images: 7,
      batchSize: 3,
      concurrency: 1,
    });
    const result = await service.backfill({
      sleep: (ms) => Promise.resolve(void waits.push(ms)),
      onProgress: (filled, missing) => progress.push([filled, missing]),
    });
    expect(result).toEqual({ missing: 7, filled: 7, remaining: 0 });
    expect(waits).toEqual([700]);
    expect(progress.at(-1)).toEqual([7, 7]);
  });

  it('stops a backfill at a failure and says why', async () => {
    const { service } = setup(
      new ScriptedShortener([null, { kind: 'failed', reason: 'the shortener answered 503 (code 1003)' }]),
      { images: 4, concurrency: 1 },
    );
    expect(await service.backfill({ sleep: () => Promise.resolve() })).toEqual({
      missing: 4,
      filled: 1,
      remaining: 3,
      failure: 'the shortener answered 503 (code 1003)',
    });
  });

  it('makes no link without a shortener key', async () => {
    const { service } = setup(null);
    expect(service.configured).toBe(false);
    expect((await service.fillBatch('')).stop).toEqual({ kind: 'failed', reason: 'SHORTENER_KEY is not set' });
  });
});
