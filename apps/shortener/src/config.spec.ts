import { ConfigError, readEnum, readInt, readUrl } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { loadShortenerConfig } from './config.js';

describe('loadShortenerConfig', () => {
  it('has working defaults', () => {
    const config = loadShortenerConfig({});
    expect(config.ports.shortener).toBe(3001);
    expect(config.urls.shortener).toBe('http://127.0.0.1:3001');
    expect(config.shortener).toEqual({ cacheSize: 100_000, previewCacheSize: 10_000, localCacheTtlMs: 300_000, redisCacheTtlSeconds: 86_400, redirectMaxAgeSeconds: 60, visits: { count: true, flushMs: 1000, moveMs: 5000 }, privateTargetPrefixes: [] });
  });

  it.each([
    ['SHORTENER_CACHE_SIZE', 'lots'],
    ['SHORTENER_PREVIEW_CACHE_SIZE', '-1'],
    ['SHORTENER_LOCAL_CACHE_TTL_SECONDS', '0'],
    ['SHORTENER_REDIS_CACHE_TTL_SECONDS', '-5'],
    ['SHORTENER_REDIRECT_MAX_AGE', '99999'],
    ['SHORTENER_COUNT_VISITS', 'maybe'],
    ['SHORTENER_VISITS_FLUSH_MS', '10'],
    ['SHORTENER_VISITS_MOVE_MS', 'often'],
  ])('names %s when it is bad', (name, value) => {
    expect(() => loadShortenerConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadShortenerConfig({ [name]: value })).toThrow(name);
  });
});

/** The message a bad value stops the process with (runService prints it as it is). */
function configErrorOf(env: Record<string, string>): string {
  try {
    loadShortenerConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration errors never show a secret', () => {
  it.each([
    ['http://:hunter2@redis.internal:6379', 'http://***@redis.internal:6379'],
    ['ftp://pawlink:hunter2@redis.internal', 'ftp://***@redis.internal'],
    ['redis://:hun@ter2@redis internal', 'redis://***@redis internal'],
    ['redis://:hun/ter2@redis.internal', 'redis://***@redis.internal'],
    ['pawlink:hunter2@redis.internal:6379', '***@redis.internal:6379'],
    ['redis://:hunter2', 'redis://:***'],
    ['http://redis.internal:6379/0?password=hunter2&db=1', 'http://redis.internal:6379/0?password=***&db=1'],
  ])('masks the credentials of REDIS_URL=%s', (value, masked) => {
    const message = configErrorOf({ REDIS_URL: value });
    expect(message).toContain('REDIS_URL');
    expect(message).toContain(masked);
    expect(message).not.toMatch(/hunter2|hun@ter2|hun\/ter2/);
  });

  it('keeps what is not a credential, so the mistake can still be seen', () => {
    expect(configErrorOf({ REDIS_URL: 'http://redis.internal:6379' })).toContain('"http://redis.internal:6379"');
    expect(configErrorOf({ SHORTENER_URL: 'ftp://pawl.ink' })).toContain('"ftp://pawl.ink"');
  });

  it('never quotes the value of a secret variable, whichever reader refuses it', () => {
    for (const read of [() => readInt({ DB_PASSWORD: 'hunter2' }, 'DB_PASSWORD', 0), () => readEnum({ DB_PASSWORD: 'hunter2' }, 'DB_PASSWORD', ['a'], 'a'), () => readUrl({ BOARD_API_TOKEN: 'hunter2' }, 'BOARD_API_TOKEN', 'http://x')]) {
      expect(read).toThrow(ConfigError);
      expect(read).toThrow('(hidden)');
      expect(read).not.toThrow(/hunter2/);
    }
  });
});
