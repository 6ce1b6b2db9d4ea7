import { ConfigError } from '@pawlink/service-kit';
import { describeConfigSecrets, itRefusesBadValues } from '@pawlink/test-kit/suites/config';
import { describe, expect, it } from 'vitest';
import { loadShortenerConfig } from './config.js';

describe('loadShortenerConfig', () => {
  it('has working defaults', () => {
    const config = loadShortenerConfig({});
    expect(config.ports.shortener).toBe(3001);
    expect(config.urls.shortener).toBe('http://127.0.0.1:3001');
    expect(config.shortener).toEqual({
      cacheSize: 100_000,
      previewCacheSize: 10_000,
      localCacheTtlMs: 300_000,
      redisCacheTtlSeconds: 86_400,
      redirectMaxAgeSeconds: 60,
      visits: {
        count: true,
        flushMs: 1000,
        moveMs: 5000,
        breakdown: true,
        geoIpDb: expect.stringMatching(/@ip-location-db\/dbip-country-mmdb\/dbip-country\.mmdb$/),
      },
      privateTargetPrefixes: [],
    });
  });

  it('turns the visit breakdown off, and reads countries from GEOIP_DB when it is set', () => {
    const config = loadShortenerConfig({
      SHORTENER_VISIT_BREAKDOWN: 'false',
      GEOIP_DB: '/srv/geoip/GeoLite2-Country.mmdb',
    });
    expect(config.shortener.visits).toMatchObject({ breakdown: false, geoIpDb: '/srv/geoip/GeoLite2-Country.mmdb' });
  });

  itRefusesBadValues(loadShortenerConfig, ConfigError, [
    ['SHORTENER_CACHE_SIZE', 'lots'],
    ['SHORTENER_PREVIEW_CACHE_SIZE', '-1'],
    ['SHORTENER_LOCAL_CACHE_TTL_SECONDS', '0'],
    ['SHORTENER_REDIS_CACHE_TTL_SECONDS', '-5'],
    ['SHORTENER_REDIRECT_MAX_AGE', '99999'],
    ['SHORTENER_COUNT_VISITS', 'maybe'],
    ['SHORTENER_VISITS_FLUSH_MS', '10'],
    ['SHORTENER_VISITS_MOVE_MS', 'often'],
    ['SHORTENER_VISIT_BREAKDOWN', 'sometimes'],
  ]);
});

describeConfigSecrets(loadShortenerConfig, ConfigError);
