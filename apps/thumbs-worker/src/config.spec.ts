import { ConfigError } from '@pawlink/service-kit';
import { describeConfigSecrets, itRefusesBadValues } from '@pawlink/test-kit/suites/config';
import { describe, expect, it } from 'vitest';
import { loadThumbsWorkerConfig } from './config.js';

describe('loadThumbsWorkerConfig: stalled jobs', () => {
  it("takes a killed worker's job back within 15 s by default (10 s lock, 5 s stalled checks), configurable", () => {
    expect(loadThumbsWorkerConfig({}, '/srv').worker).toMatchObject({
      lockDurationMs: 10_000,
      stalledIntervalMs: 5_000,
      maxStalledCount: 2,
    });
    expect(
      loadThumbsWorkerConfig({ WORKER_LOCK_DURATION_MS: '30000', WORKER_STALLED_INTERVAL_MS: '30000' }, '/srv').worker,
    ).toMatchObject({ lockDurationMs: 30_000, stalledIntervalMs: 30_000 });
    expect(() => loadThumbsWorkerConfig({ WORKER_LOCK_DURATION_MS: '500' })).toThrow('WORKER_LOCK_DURATION_MS');
  });
});

describe('loadThumbsWorkerConfig: downloads', () => {
  it('downloads from the hosts of BOARD_STATIC_URL and BOARD_URL by default, none of them at a private address, following 3 redirects', () => {
    expect(loadThumbsWorkerConfig({}, '/srv').worker).toMatchObject({
      downloadHosts: [
        { hostname: 'static1.e621.net', port: null },
        { hostname: 'e621.net', port: null },
      ],
      downloadPrivateHosts: [],
      downloadMaxRedirects: 3,
    });
    const local = loadThumbsWorkerConfig(
      { BOARD_URL: 'http://10.0.0.5:8080', BOARD_STATIC_URL: 'http://10.0.0.5:8080/static' },
      '/srv',
    ).worker;
    expect(local.downloadHosts).toEqual([{ hostname: '10.0.0.5', port: 8080 }]);
  });

  it('with BOARD_URL=demo downloads from the demo board on loopback', () => {
    const worker = loadThumbsWorkerConfig({ BOARD_URL: 'demo', DEMO_BOARD_PORT: '4100' }, '/srv').worker;
    expect(worker.downloadHosts).toEqual([{ hostname: '127.0.0.1', port: 4100 }]);
    expect(worker.downloadPrivateHosts).toEqual([{ hostname: '127.0.0.1', port: 4100 }]);
  });

  it('takes THUMBS_DOWNLOAD_HOSTS and THUMBS_DOWNLOAD_PRIVATE_HOSTS as host[:port] lists', () => {
    const worker = loadThumbsWorkerConfig(
      { THUMBS_DOWNLOAD_HOSTS: 'static1.e621.net, mirror.lan:8080', THUMBS_DOWNLOAD_PRIVATE_HOSTS: 'mirror.lan:8080' },
      '/srv',
    ).worker;
    expect(worker.downloadHosts).toEqual([
      { hostname: 'static1.e621.net', port: null },
      { hostname: 'mirror.lan', port: 8080 },
    ]);
    expect(worker.downloadPrivateHosts).toEqual([{ hostname: 'mirror.lan', port: 8080 }]);
  });

  itRefusesBadValues(
    loadThumbsWorkerConfig,
    ConfigError,
    [
      ['THUMBS_DOWNLOAD_HOSTS', 'https://static1.e621.net'],
      ['THUMBS_DOWNLOAD_HOSTS', 'a,,b'],
      ['THUMBS_DOWNLOAD_PRIVATE_HOSTS', 'localhost'],
      ['THUMBS_DOWNLOAD_MAX_REDIRECTS', '11'],
    ],
    'refuses %s=%s naming it',
  );
});

describe('loadThumbsWorkerConfig: health server', () => {
  it('has none unless WORKER_HEALTH_PORT is set, and binds to 127.0.0.1 unless WORKER_HEALTH_HOST says otherwise', () => {
    expect(loadThumbsWorkerConfig({}, '/srv').worker.health).toEqual({ host: '127.0.0.1', port: null });
    expect(
      loadThumbsWorkerConfig({ WORKER_HEALTH_PORT: '9464', WORKER_HEALTH_HOST: '0.0.0.0' }, '/srv').worker.health,
    ).toEqual({ host: '0.0.0.0', port: 9464 });
    // HOST, where the services listen, is its default.
    expect(loadThumbsWorkerConfig({ WORKER_HEALTH_PORT: '9464', HOST: '::' }, '/srv').worker.health).toEqual({
      host: '::',
      port: 9464,
    });
    expect(
      loadThumbsWorkerConfig({ WORKER_HEALTH_PORT: '9464', HOST: '::', WORKER_HEALTH_HOST: '127.0.0.1' }, '/srv').worker
        .health,
    ).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(() => loadThumbsWorkerConfig({ WORKER_HEALTH_PORT: 'http' })).toThrow('WORKER_HEALTH_PORT');
  });
});

describe('loadThumbsWorkerConfig: metrics listener', () => {
  it('has none unless WORKER_METRICS_PORT is set (or with off); it binds to METRICS_HOST', () => {
    expect(loadThumbsWorkerConfig({}, '/srv').worker.metricsPort).toBeNull();
    expect(loadThumbsWorkerConfig({ WORKER_METRICS_PORT: 'off' }, '/srv').worker.metricsPort).toBeNull();
    const config = loadThumbsWorkerConfig({ WORKER_METRICS_PORT: '9104', METRICS_HOST: '0.0.0.0' }, '/srv');
    expect([config.worker.metricsPort, config.metrics.host]).toEqual([9104, '0.0.0.0']);
    expect(() => loadThumbsWorkerConfig({ WORKER_METRICS_PORT: 'metrics' })).toThrow('WORKER_METRICS_PORT');
  });
});

describeConfigSecrets(loadThumbsWorkerConfig, ConfigError);

describe('loadThumbsWorkerConfig: completion callbacks', () => {
  it("renders and delivers by default, on the contract's schedule, to public addresses only", () => {
    const config = loadThumbsWorkerConfig({}, '/srv');
    expect(config.roles).toEqual(['render', 'callbacks']);
    expect(config.callbacks).toMatchObject({
      privateHosts: [],
      timeoutMs: 5000,
      retryDelaysMs: [10_000, 60_000, 180_000, 600_000],
      secretsKey: '',
    });
  });

  it('takes one role, a private receiver, a shorter schedule and the secrets key', () => {
    const config = loadThumbsWorkerConfig(
      {
        THUMBS_WORKER_ROLES: 'callbacks',
        THUMBS_CALLBACK_PRIVATE_HOSTS: '127.0.0.1:9000',
        THUMBS_CALLBACK_RETRY_DELAYS_MS: '100, 200',
        PAWLINK_SECRETS_KEY: 'a'.repeat(64),
      },
      '/srv',
    );
    expect(config.roles).toEqual(['callbacks']);
    expect(config.callbacks).toMatchObject({
      privateHosts: [{ hostname: '127.0.0.1', port: 9000 }],
      retryDelaysMs: [100, 200],
      secretsKey: 'a'.repeat(64),
    });
  });

  itRefusesBadValues(loadThumbsWorkerConfig, ConfigError, [
    ['THUMBS_WORKER_ROLES', 'render,mail'],
    ['THUMBS_WORKER_ROLES', ' , '],
    ['THUMBS_CALLBACK_RETRY_DELAYS_MS', '100,50'],
    ['THUMBS_CALLBACK_RETRY_DELAYS_MS', 'soon'],
    ['THUMBS_CALLBACK_TIMEOUT_MS', '10'],
    ['THUMBS_CALLBACK_PRIVATE_HOSTS', 'http://x/'],
    ['PAWLINK_SECRETS_KEY', 'not-a-key'],
  ]);
});
