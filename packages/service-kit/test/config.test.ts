import { describe, expect, it } from 'vitest';
import { ConfigError, loadBaseConfig } from '../src/index.js';

describe('loadBaseConfig', () => {
  it('has the documented defaults (README, Configuration)', () => {
    const config = loadBaseConfig({}, '/srv/pawlink');
    expect(config.ports).toEqual({ shortener: 3001, images: 3002, thumbs: 3003, media: 3004 });
    expect(config.urls).toEqual({
      shortener: 'http://127.0.0.1:3001',
      images: 'http://127.0.0.1:3002',
      thumbs: 'http://127.0.0.1:3003',
      media: 'http://127.0.0.1:3004/thumbs',
      imagesMedia: 'http://127.0.0.1:3004/images',
    });
    expect(config.mediaDir).toBe('/srv/pawlink/data/media');
    expect(config.database).toEqual({ type: 'mariadb', host: '127.0.0.1', port: 3306, user: 'root', password: '', prefix: 'pawlink_' });
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'pawlink:' });
    expect(config.readOnlyDefault).toBe(false);
    expect(config.logLevel).toBe('info');
  });

  it('serves metrics on 127.0.0.1:9101–9103 by default; off turns one off, 0 picks a free port', () => {
    expect(loadBaseConfig({}).metrics).toEqual({ host: '127.0.0.1', ports: { shortener: 9101, images: 9102, thumbs: 9103 } });
    const config = loadBaseConfig({ METRICS_HOST: '0.0.0.0', SHORTENER_METRICS_PORT: 'off', IMAGES_METRICS_PORT: '0', THUMBS_METRICS_PORT: '9200' });
    expect(config.metrics).toEqual({ host: '0.0.0.0', ports: { shortener: null, images: 0, thumbs: 9200 } });
  });

  it('derives base URLs from ports and strips trailing slashes', () => {
    const config = loadBaseConfig({ SHORTENER_PORT: '8080', IMAGES_URL: 'https://img.example/' });
    expect(config.urls.shortener).toBe('http://127.0.0.1:8080');
    expect(config.urls.images).toBe('https://img.example');
  });

  it.each([
    ['SHORTENER_PORT', 'abc'],
    ['THUMBS_PORT', '70000'],
    ['IMAGES_METRICS_PORT', 'maybe'],
    ['DB_TYPE', 'postgres'],
    ['READ_ONLY', 'maybe'],
    ['REDIS_URL', 'http://x'],
    ['IMAGES_URL', 'not a url'],
    ['DB_PREFIX', 'bad;name'],
    ['LOG_LEVEL', 'loud'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadBaseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadBaseConfig({ [name]: value })).toThrow(name);
  });
});
