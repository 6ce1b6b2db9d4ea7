import { describeConfigSecrets, itRefusesBadValues } from '@pawlink/test-kit/suites/config';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadBaseConfig, readEnum, readInt, readUrl } from '../src/index.js';

describe('loadBaseConfig', () => {
  it('has the documented defaults (docs/configuration.md)', () => {
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
    expect(config.database).toEqual({
      type: 'mariadb',
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
      prefix: 'pawlink_',
    });
    expect(config.redis).toEqual({ url: 'redis://127.0.0.1:6379', prefix: 'pawlink:' });
    expect(config.readOnlyDefault).toBe(false);
    expect(config.logLevel).toBe('info');
  });

  it('serves metrics on 127.0.0.1:9101–9103 by default; off turns one off, 0 picks a free port', () => {
    expect(loadBaseConfig({}).metrics).toEqual({
      host: '127.0.0.1',
      ports: { shortener: 9101, images: 9102, thumbs: 9103 },
    });
    const config = loadBaseConfig({
      METRICS_HOST: '0.0.0.0',
      SHORTENER_METRICS_PORT: 'off',
      IMAGES_METRICS_PORT: '0',
      THUMBS_METRICS_PORT: '9200',
    });
    expect(config.metrics).toEqual({ host: '0.0.0.0', ports: { shortener: null, images: 0, thumbs: 9200 } });
  });

  it('listens on HOST, 127.0.0.1 unless set: IPv4, IPv6 (without brackets) and host names', () => {
    expect(loadBaseConfig({}).host).toBe('127.0.0.1');
    for (const host of ['0.0.0.0', '::', '::1', 'fd00::12', '10.1.2.3', 'localhost', 'api.internal']) {
      expect(loadBaseConfig({ HOST: host }).host, host).toBe(host);
    }
  });

  itRefusesBadValues(
    loadBaseConfig,
    ConfigError,
    ['[::]', '0.0.0.0:3001', 'http://0.0.0.0', 'a b', '-bad-'].map((value) => ['HOST', value] as const),
    'rejects %s=%s naming the variable',
  );

  it('reads REDIS_CLUSTER_NODES as the seed nodes of a Redis Cluster, IPv6 literals too', () => {
    const config = loadBaseConfig({
      REDIS_CLUSTER_NODES: ' redis-1:7000, 10.0.0.2:7001,[fd00::3]:7002 ',
      REDIS_URL: 'rediss://:secret@ignored:6379',
    });
    expect(config.redis).toEqual({
      url: 'rediss://:secret@ignored:6379',
      prefix: 'pawlink:',
      clusterNodes: [
        { host: 'redis-1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: 'fd00::3', port: 7002 },
      ],
    });
    expect(loadBaseConfig({ REDIS_CLUSTER_NODES: '' }).redis.clusterNodes).toBeUndefined();
  });

  itRefusesBadValues(
    loadBaseConfig,
    ConfigError,
    ['redis-1', 'redis-1:7000,', 'redis-1:0', 'redis-1:70000', 'redis://redis-1:7000', 'a b:7000'].map(
      (value) => ['REDIS_CLUSTER_NODES', value] as const,
    ),
    'rejects %s=%s naming the variable',
  );

  it('derives base URLs from ports and strips trailing slashes', () => {
    const config = loadBaseConfig({ SHORTENER_PORT: '8080', IMAGES_URL: 'https://img.example/' });
    expect(config.urls.shortener).toBe('http://127.0.0.1:8080');
    expect(config.urls.images).toBe('https://img.example');
  });

  itRefusesBadValues(
    loadBaseConfig,
    ConfigError,
    [
      ['SHORTENER_PORT', 'abc'],
      ['THUMBS_PORT', '70000'],
      ['IMAGES_METRICS_PORT', 'maybe'],
      ['DB_TYPE', 'postgres'],
      ['READ_ONLY', 'maybe'],
      ['REDIS_URL', 'http://x'],
      ['IMAGES_URL', 'not a url'],
      ['DB_PREFIX', 'bad;name'],
      ['LOG_LEVEL', 'loud'],
    ],
    'rejects %s=%s naming the variable',
  );
});

describeConfigSecrets(loadBaseConfig, ConfigError);

describe('the readers of a secret variable', () => {
  it('never quote its value, whichever reader refuses it', () => {
    for (const read of [
      () => readInt({ DB_PASSWORD: 'hunter2' }, 'DB_PASSWORD', 0),
      () => readEnum({ DB_PASSWORD: 'hunter2' }, 'DB_PASSWORD', ['a'], 'a'),
      () => readUrl({ BOARD_API_TOKEN: 'hunter2' }, 'BOARD_API_TOKEN', 'http://x'),
    ]) {
      expect(read).toThrow(ConfigError);
      expect(read).toThrow('(hidden)');
      expect(read).not.toThrow(/hunter2/);
    }
  });
});
