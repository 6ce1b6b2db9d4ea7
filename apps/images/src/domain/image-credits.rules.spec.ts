import { describe, expect, it } from 'vitest';
import {
  MAX_ARTISTS,
  MAX_SOURCES,
  normaliseArtist,
  normaliseCreditUrl,
  normaliseCredits,
  quoted,
} from './image-credits.rules.js';

const credits = (
  over: Partial<{ artists: string[]; sources: string[]; reportUrl: string | null; shortUrl: string | null }>,
) => ({ artists: [], sources: [], reportUrl: null, shortUrl: null, ...over });

describe('image credit rules', () => {
  it('takes artists by the credit rule, trimmed', () => {
    expect(normaliseArtist('  Zoë ')).toEqual({ artist: 'Zoë' });
    expect(normaliseArtist('🦊'.repeat(50))).toEqual({ artist: '🦊'.repeat(50) });
    for (const bad of ['a\u202Eb', 'a\u2028b', 'a\nb', '', 'x'.repeat(51)])
      expect(normaliseArtist(bad)).toHaveProperty('problem');
  });

  it('stores URLs in their normalised form', () => {
    expect(normaliseCreditUrl(' HTTPS://Bücher.Example:443/a b?q="1" ')).toEqual({
      url: 'https://xn--bcher-kva.example/a%20b?q=%221%22',
    });
    expect(normaliseCreditUrl('http://example.com')).toEqual({ url: 'http://example.com/' });
    for (const bad of [
      'ftp://example.com/',
      'mailto:a@example.com',
      'https://a:b@example.com/',
      'https://exa\nmple.com/',
      'https://example.com/\u2066',
      '//example.com/x',
      'https://',
      '',
    ]) {
      expect(normaliseCreditUrl(bad), bad).toHaveProperty('problem');
    }
  });

  it('limits how many, drops repeats, and names the first problem', () => {
    expect(
      normaliseCredits(credits({ artists: ['Ann', ' Ann'], sources: ['https://example.com', 'https://EXAMPLE.com/'] })),
    ).toEqual({ credits: credits({ artists: ['Ann'], sources: ['https://example.com/'] }) });
    expect(normaliseCredits(credits({ artists: Array.from({ length: MAX_ARTISTS + 1 }, (_, i) => `a${i}`) }))).toEqual({
      problem: `${MAX_ARTISTS + 1} artists (at most ${MAX_ARTISTS})`,
    });
    expect(
      normaliseCredits(
        credits({ sources: Array.from({ length: MAX_SOURCES + 1 }, (_, i) => `https://example.com/${i}`) }),
      ),
    ).toEqual({ problem: `${MAX_SOURCES + 1} sources (at most ${MAX_SOURCES})` });
    expect(normaliseCredits(credits({ reportUrl: 'nope' }))).toEqual({
      problem: 'reportURL "nope" is not an absolute http(s) URL',
    });
  });

  it('quotes refused text without its unprintable characters', () => {
    expect(quoted('a\u202Eb\u0000')).toBe('"a\\u{202E}b\\u{0}"');
    expect(quoted('x'.repeat(50))).toBe(`"${'x'.repeat(40)}…"`);
  });
});
