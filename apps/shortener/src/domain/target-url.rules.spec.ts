import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pawlink/service-kit';
import { loadShortenerConfig } from '../config.js';
import { normalisePrivateTargetPrefix, normaliseTargetUrl } from './target-url.rules.js';

describe('private target prefixes', () => {
  it("are normalised to end in a slash, in the parser's form", () => {
    expect(normalisePrivateTargetPrefix('http://LOCALHOST:3004/images')).toBe('http://localhost:3004/images/');
    expect(normalisePrivateTargetPrefix('http://127.1:80/a/')).toBe('http://127.0.0.1/a/');
  });

  it('let a URL under them skip only the host checks', () => {
    const prefixes = [normalisePrivateTargetPrefix('http://127.0.0.1:3004/images')];
    expect(normaliseTargetUrl('http://127.0.0.1:3004/images/a.png', prefixes)).toBe(
      'http://127.0.0.1:3004/images/a.png',
    );
    expect(() => normaliseTargetUrl('http://127.0.0.1:3004/images/a.png')).toThrow(/private, loopback/);
    expect(() => normaliseTargetUrl('http://127.0.0.1:3004/images/a\n.png', prefixes)).toThrow(/control characters/);
    expect(() => normaliseTargetUrl('http://127.0.0.1:3004/imagesx', prefixes)).toThrow(/private, loopback/);
  });

  it('are read from SHORTENER_PRIVATE_TARGET_PREFIXES; a bad one stops the process naming the variable', () => {
    expect(loadShortenerConfig({}).shortener.privateTargetPrefixes).toEqual([]);
    expect(
      loadShortenerConfig({ SHORTENER_PRIVATE_TARGET_PREFIXES: ' http://127.0.0.1:3004/images , https://m.test/x/ ' })
        .shortener.privateTargetPrefixes,
    ).toEqual(['http://127.0.0.1:3004/images/', 'https://m.test/x/']);
    for (const bad of ['ftp://h/x', 'not a url', 'http://h/x?q=1', 'http://u:p@h/x', 'http://h/x#f']) {
      expect(() => loadShortenerConfig({ SHORTENER_PRIVATE_TARGET_PREFIXES: bad }), bad).toThrow(ConfigError);
      expect(() => loadShortenerConfig({ SHORTENER_PRIVATE_TARGET_PREFIXES: bad })).toThrow(
        /SHORTENER_PRIVATE_TARGET_PREFIXES/,
      );
    }
  });
});
