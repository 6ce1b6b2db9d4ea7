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
  });
});
