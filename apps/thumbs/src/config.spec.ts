import { ConfigError } from '@pawlink/service-kit';
import { describeConfigSecrets, itRefusesBadValues } from '@pawlink/test-kit/suites/config';
import { describe, expect, it } from 'vitest';
import { loadThumbsConfig } from './config.js';

describe('loadThumbsConfig', () => {
  it('has working defaults', () => {
    const config = loadThumbsConfig({}, '/srv');
    expect(config.ports.thumbs).toBe(3003);
    expect(config.mediaDir).toBe('/srv/data/media');
    expect(config.board).toMatchObject({
      baseUrl: 'https://e621.net',
      staticUrl: 'https://static1.e621.net',
      requestsPerSecond: 2,
    });
    expect(config.board.userAgent).toMatch(/^Pawlink\/\S+ \(thumbnails\)$/);
    expect(config.thumbs).toMatchObject({
      failedTtlSeconds: 3600,
      completedTtlSeconds: 3600,
      jobAttempts: 3,
      defaultJobMs: 5000,
      boardMaxWaitMs: 3000,
      boardSharePerKey: 2,
      boardSharePerIp: 4,
    });
  });

  itRefusesBadValues(loadThumbsConfig, ConfigError, [
    ['THUMBS_FAILED_TTL_SECONDS', 'soon'],
    ['BOARD_STATIC_URL', 'ftp://x'],
    ['THUMBS_BOARD_MAX_WAIT_MS', '-1'],
    ['THUMBS_BOARD_SHARE_PER_KEY', '0'],
    ['THUMBS_BOARD_SHARE_PER_IP', 'many'],
    ['ADMIN_COOKIE_SECURE', 'yes'],
    ['THUMBS_DASHBOARD_WRITE', 'maybe'],
    ['THUMBS_CALLBACK_PRIVATE_HOSTS', 'http://127.0.0.1:8080/'],
  ]);

  it('lets callbacks reach private addresses only at the hosts THUMBS_CALLBACK_PRIVATE_HOSTS lists', () => {
    expect(loadThumbsConfig({}).thumbs.callbackPrivateHosts).toEqual([]);
    expect(
      loadThumbsConfig({ THUMBS_CALLBACK_PRIVATE_HOSTS: '127.0.0.1:8080, [::1]:9000,receiver.lan' }).thumbs
        .callbackPrivateHosts,
    ).toEqual([
      { hostname: '127.0.0.1', port: 8080 },
      { hostname: '[::1]', port: 9000 },
      { hostname: 'receiver.lan', port: null },
    ]);
  });

  it('makes the session cookie Secure by the scheme of THUMBS_URL, unless ADMIN_COOKIE_SECURE says', () => {
    expect(loadThumbsConfig({}).thumbs.adminCookieSecure).toBe(false);
    expect(loadThumbsConfig({ THUMBS_URL: 'https://thumbs.example' }).thumbs.adminCookieSecure).toBe(true);
    expect(
      loadThumbsConfig({ ADMIN_COOKIE_SECURE: 'auto', THUMBS_URL: 'https://thumbs.example' }).thumbs.adminCookieSecure,
    ).toBe(true);
    // TLS that ends at a proxy in front of an http:// THUMBS_URL.
    expect(loadThumbsConfig({ ADMIN_COOKIE_SECURE: 'true' }).thumbs.adminCookieSecure).toBe(true);
    expect(
      loadThumbsConfig({ ADMIN_COOKIE_SECURE: 'false', THUMBS_URL: 'https://thumbs.example' }).thumbs.adminCookieSecure,
    ).toBe(false);
  });

  it('keeps the queue dashboard read-only unless THUMBS_DASHBOARD_WRITE is true', () => {
    expect(loadThumbsConfig({}).thumbs.dashboardWrite).toBe(false);
    expect(loadThumbsConfig({ THUMBS_DASHBOARD_WRITE: 'true' }).thumbs.dashboardWrite).toBe(true);
  });
});

describeConfigSecrets(loadThumbsConfig, ConfigError);
