import { ConfigError } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { loadThumbsWorkerConfig } from './config.js';

describe('loadThumbsWorkerConfig: downloads', () => {
  it('downloads from the hosts of BOARD_STATIC_URL and BOARD_URL by default, none of them at a private address, following 3 redirects', () => {
    expect(loadThumbsWorkerConfig({}, '/srv').worker).toMatchObject({
      downloadHosts: [{ hostname: 'static1.e621.net', port: null }, { hostname: 'e621.net', port: null }],
      downloadPrivateHosts: [],
      downloadMaxRedirects: 3,
    });
    const local = loadThumbsWorkerConfig({ BOARD_URL: 'http://10.0.0.5:8080', BOARD_STATIC_URL: 'http://10.0.0.5:8080/static' }, '/srv').worker;
    expect(local.downloadHosts).toEqual([{ hostname: '10.0.0.5', port: 8080 }]);
  });

  it('takes THUMBS_DOWNLOAD_HOSTS and THUMBS_DOWNLOAD_PRIVATE_HOSTS as host[:port] lists', () => {
    const worker = loadThumbsWorkerConfig({ THUMBS_DOWNLOAD_HOSTS: 'static1.e621.net, mirror.lan:8080', THUMBS_DOWNLOAD_PRIVATE_HOSTS: 'mirror.lan:8080' }, '/srv').worker;
    expect(worker.downloadHosts).toEqual([{ hostname: 'static1.e621.net', port: null }, { hostname: 'mirror.lan', port: 8080 }]);
    expect(worker.downloadPrivateHosts).toEqual([{ hostname: 'mirror.lan', port: 8080 }]);
  });

  it.each([
    ['THUMBS_DOWNLOAD_HOSTS', 'https://static1.e621.net'],
    ['THUMBS_DOWNLOAD_HOSTS', 'a,,b'],
    ['THUMBS_DOWNLOAD_PRIVATE_HOSTS', 'localhost'],
    ['THUMBS_DOWNLOAD_MAX_REDIRECTS', '11'],
  ])('refuses %s=%s naming it', (name, value) => {
    expect(() => loadThumbsWorkerConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadThumbsWorkerConfig({ [name]: value })).toThrow(name);
  });
});
