import { ConfigError } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { loadThumbsConfig } from './config.js';

describe('loadThumbsConfig', () => {
  it('has working defaults', () => {
    const config = loadThumbsConfig({}, '/srv');
    expect(config.ports.thumbs).toBe(3003);
    expect(config.mediaDir).toBe('/srv/data/media');
    expect(config.board).toMatchObject({ baseUrl: 'https://e621.net', staticUrl: 'https://static1.e621.net', requestsPerSecond: 2 });
    expect(config.board.userAgent).toMatch(/^Pawlink\/\S+ \(thumbnails\)$/);
    expect(config.thumbs).toMatchObject({ failedTtlSeconds: 3600, completedTtlSeconds: 3600, jobAttempts: 3, defaultJobMs: 5000, boardMaxWaitMs: 3000, boardSharePerKey: 2, boardSharePerIp: 4 });
  });

  it('names the variable when a value is bad', () => {
    expect(() => loadThumbsConfig({ THUMBS_FAILED_TTL_SECONDS: 'soon' })).toThrow(ConfigError);
    expect(() => loadThumbsConfig({ THUMBS_FAILED_TTL_SECONDS: 'soon' })).toThrow(/THUMBS_FAILED_TTL_SECONDS/);
    expect(() => loadThumbsConfig({ BOARD_STATIC_URL: 'ftp://x' })).toThrow(/BOARD_STATIC_URL/);
    expect(() => loadThumbsConfig({ THUMBS_BOARD_MAX_WAIT_MS: '-1' })).toThrow(/THUMBS_BOARD_MAX_WAIT_MS/);
    expect(() => loadThumbsConfig({ THUMBS_BOARD_SHARE_PER_KEY: '0' })).toThrow(/THUMBS_BOARD_SHARE_PER_KEY/);
    expect(() => loadThumbsConfig({ THUMBS_BOARD_SHARE_PER_IP: 'many' })).toThrow(/THUMBS_BOARD_SHARE_PER_IP/);
    expect(() => loadThumbsConfig({ ADMIN_COOKIE_SECURE: 'yes' })).toThrow(/ADMIN_COOKIE_SECURE/);
    expect(() => loadThumbsConfig({ THUMBS_DASHBOARD_WRITE: 'maybe' })).toThrow(/THUMBS_DASHBOARD_WRITE/);
  });

  it('makes the session cookie Secure by the scheme of THUMBS_URL, unless ADMIN_COOKIE_SECURE says', () => {
    expect(loadThumbsConfig({}).thumbs.adminCookieSecure).toBe(false);
    expect(loadThumbsConfig({ THUMBS_URL: 'https://thumbs.example' }).thumbs.adminCookieSecure).toBe(true);
    expect(loadThumbsConfig({ ADMIN_COOKIE_SECURE: 'auto', THUMBS_URL: 'https://thumbs.example' }).thumbs.adminCookieSecure).toBe(true);
    // TLS that ends at a proxy in front of an http:// THUMBS_URL.
    expect(loadThumbsConfig({ ADMIN_COOKIE_SECURE: 'true' }).thumbs.adminCookieSecure).toBe(true);
    expect(loadThumbsConfig({ ADMIN_COOKIE_SECURE: 'false', THUMBS_URL: 'https://thumbs.example' }).thumbs.adminCookieSecure).toBe(false);
  });

  it('keeps the queue dashboard read-only unless THUMBS_DASHBOARD_WRITE is true', () => {
    expect(loadThumbsConfig({}).thumbs.dashboardWrite).toBe(false);
    expect(loadThumbsConfig({ THUMBS_DASHBOARD_WRITE: 'true' }).thumbs.dashboardWrite).toBe(true);
  });
});
