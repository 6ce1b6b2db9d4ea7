import { describe, expect, it } from 'vitest';
import {
  AgentSummaries,
  deviceOf,
  normaliseReferrerHost,
  rawReferrerHost,
  summariseAgent,
} from './visit-source.rules.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0';
const TV =
  'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36';

describe('referrer hosts', () => {
  it('takes the host part of a Referer as sent, without parsing it', () => {
    expect(rawReferrerHost('https://News.Example.com:8443/path?q=1#top')).toBe('News.Example.com:8443');
    expect(rawReferrerHost('https://example.com?q')).toBe('example.com');
    expect(rawReferrerHost('https://example.com#x')).toBe('example.com');
    expect(rawReferrerHost('https://user:pw@example.com/')).toBe('user:pw@example.com');
    expect(rawReferrerHost(undefined)).toBe('');
    expect(rawReferrerHost('example.com/page')).toBe('');
  });

  it('shows a host in lower case, without port or user info; none or an unparseable one is direct', () => {
    expect(normaliseReferrerHost('News.Example.COM:8443')).toBe('news.example.com');
    expect(normaliseReferrerHost('user:pw@Example.com')).toBe('example.com');
    expect(normaliseReferrerHost('[2001:DB8::1]:443')).toBe('[2001:db8::1]');
    expect(normaliseReferrerHost('')).toBe('direct');
    expect(normaliseReferrerHost('exa mple.com')).toBe('direct');
    expect(normaliseReferrerHost('[not-ipv6]')).toBe('direct');
    expect(normaliseReferrerHost(rawReferrerHost('not a url'))).toBe('direct');
  });
});

describe('user agents', () => {
  it('maps platform types to devices: desktop, mobile, tablet, else other', () => {
    expect(deviceOf('desktop')).toBe('desktop');
    expect(deviceOf('mobile')).toBe('mobile');
    expect(deviceOf('tablet')).toBe('tablet');
    expect(deviceOf('tv')).toBe('other');
    expect(deviceOf('bot')).toBe('other');
    expect(deviceOf(undefined)).toBe('other');
  });

  it('names browser, OS and device; what it cannot name is other', () => {
    expect(summariseAgent(IPHONE)).toEqual({ browser: 'Safari', os: 'iOS', device: 'mobile' });
    expect(summariseAgent(IPAD)).toEqual({ browser: 'Safari', os: 'iOS', device: 'tablet' });
    expect(summariseAgent(EDGE)).toEqual({ browser: 'Microsoft Edge', os: 'Windows', device: 'desktop' });
    expect(summariseAgent(TV)).toMatchObject({ os: 'Tizen', device: 'other' });
    expect(summariseAgent('')).toEqual({ browser: 'other', os: 'other', device: 'other' });
    expect(summariseAgent('curl/8.5.0')).toEqual({ browser: 'other', os: 'other', device: 'other' });
  });

  it('remembers a summary per user agent', () => {
    const agents = new AgentSummaries();
    const first = agents.of(EDGE);
    expect(agents.of(EDGE)).toBe(first);
    expect(agents.of(IPHONE)).toEqual(summariseAgent(IPHONE));
  });
});
