import { describe, expect, it } from 'vitest';
import { isIpAddressLiteral, isPublicIpAddress } from './public-address.js';

describe('isPublicIpAddress', () => {
  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e'])(
    '%s is public',
    (address) => {
      expect(isPublicIpAddress(address)).toBe(true);
    },
  );

  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback', '127.255.0.1'],
    ['unspecified', '0.0.0.0'],
    ['private', '10.1.2.3'],
    ['private', '172.16.0.1'],
    ['private', '192.168.1.1'],
    ['link-local', '169.254.169.254'],
    ['CGNAT', '100.64.0.1'],
    ['multicast', '224.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['reserved', '240.0.0.1'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local with zone', 'fe80::1%eth0'],
    ['unique local', 'fd00::1'],
    ['IPv4-mapped', '::ffff:127.0.0.1'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['NAT64', '64:ff9b::7f00:1'],
    ['6to4', '2002:7f00:1::'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['documentation', '2001:db8::1'],
  ])('%s %s is not', (_what, address) => {
    expect(isPublicIpAddress(address)).toBe(false);
  });

  it.each(['localhost', 'example.com', '127.1', '0x7f.0.0.1', '2130706433', '[::1]', '', '1.2.3.4.5'])(
    '%j is not an address it judges public',
    (text) => {
      expect(isPublicIpAddress(text)).toBe(false);
    },
  );

  it('tells address literals from host names', () => {
    expect(['127.0.0.1', '::1', 'fe80::1%eth0'].map(isIpAddressLiteral)).toEqual([true, true, true]);
    expect(['localhost', 'static1.e621.net', '127.1', '[::1]'].map(isIpAddressLiteral)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
