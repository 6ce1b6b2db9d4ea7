import { describe, expect, it } from 'vitest';
import { firstRefusedAddress, isAllowedMediaUrl, mediaHostsOf, parseMediaHost } from './media-host.js';

describe('parseMediaHost', () => {
  it.each([
    ['static1.e621.net', { hostname: 'static1.e621.net', port: null }],
    ['Static1.E621.net:8443', { hostname: 'static1.e621.net', port: 8443 }],
    ['127.0.0.1:4567', { hostname: '127.0.0.1', port: 4567 }],
    ['[::1]:80', { hostname: '[::1]', port: 80 }],
    ['[2001:db8::1]', { hostname: '[2001:db8::1]', port: null }],
    ['bücher.example', { hostname: 'xn--bcher-kva.example', port: null }],
  ])('reads %s', (entry, host) => {
    expect(parseMediaHost(entry)).toEqual(host);
  });

  it.each([
    '',
    ' ',
    'https://static1.e621.net',
    'host/path',
    'user@host',
    'host:0',
    'host:99999',
    '::1',
    'a b',
    'host?x',
  ])('refuses %j', (entry) => {
    expect(parseMediaHost(entry)).toBeNull();
  });
});

describe('isAllowedMediaUrl', () => {
  const hosts = mediaHostsOf([
    'https://static1.e621.net',
    'https://e621.net/',
    'http://127.0.0.1:4567',
    'https://static1.e621.net',
  ]);

  it('takes the hosts of the board URLs once each', () => {
    expect(hosts).toEqual([
      { hostname: 'static1.e621.net', port: null },
      { hostname: 'e621.net', port: null },
      { hostname: '127.0.0.1', port: 4567 },
    ]);
  });

  it.each([
    'https://static1.e621.net/data/ab/cd/x.webm',
    'http://static1.e621.net/x',
    'https://STATIC1.e621.net:443/x',
    'https://e621.net/x',
    'http://127.0.0.1:4567/data/x.png',
    'http://2130706433:4567/same-address-spelled-otherwise',
  ])('allows %s', (url) => {
    expect(isAllowedMediaUrl(new URL(url), hosts)).toBe(true);
  });

  it.each([
    'https://evil.example/x',
    'https://static1.e621.net.evil.example/x',
    'https://static1.e621.net:8080/x',
    'http://127.0.0.1/x',
    'http://127.0.0.1:1/x',
    'http://127.0.0.2:4567/x',
    'http://localhost:4567/x',
    'ftp://static1.e621.net/x',
    'file:///etc/passwd',
    'https://user:pw@static1.e621.net/x',
  ])('refuses %s', (url) => {
    expect(isAllowedMediaUrl(new URL(url), hosts)).toBe(false);
  });
});

describe('firstRefusedAddress', () => {
  const url = new URL('http://receiver.test:8080/hook');
  it('refuses any private address in the answer unless host:port is listed', () => {
    expect(firstRefusedAddress(url, [{ address: '8.8.4.4' }, { address: '10.0.0.1' }], [])).toBe('10.0.0.1');
    expect(
      firstRefusedAddress(url, [{ address: '127.0.0.1' }], [{ hostname: 'receiver.test', port: 8080 }]),
    ).toBeUndefined();
    expect(firstRefusedAddress(url, [{ address: '127.0.0.1' }], [{ hostname: 'receiver.test', port: 9090 }])).toBe(
      '127.0.0.1',
    );
  });
  it('lets public answers through', () => {
    expect(firstRefusedAddress(url, [{ address: '8.8.8.8' }, { address: '2001:4860:4860::8888' }], [])).toBeUndefined();
  });
});
