import { describe, expect, it } from 'vitest';
import { UnreadableValue } from './imported-link.js';
import { codeOfShortUrl, dateOf, tagsOf, wholeOf } from './source-values.js';

describe('source values', () => {
  it('reads ISO 8601 dates with a zone, and bare dates and YOURLS times as UTC', () => {
    expect(dateOf('2024-05-01T10:00:00+02:00', 'd')?.toISOString()).toBe('2024-05-01T08:00:00.000Z');
    expect(dateOf('2024-05-01 10:00:00', 'd')?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(dateOf('2024-05-01', 'd')?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(dateOf('  ', 'd')).toBeNull();
    expect(() => dateOf('yesterday', 'createdAt')).toThrow(
      new UnreadableValue('createdAt "yesterday" is not an ISO 8601 date'),
    );
    expect(() => dateOf('2024-13-45', 'd')).toThrow(UnreadableValue);
  });

  it('reads whole numbers (digits only) with a floor, blank as given', () => {
    expect(wholeOf(' 12 ', 'visits', 0, 0)).toBe(12);
    expect(wholeOf('', 'maxVisits', 1, null)).toBeNull();
    expect(wholeOf(7, 'visits', 0, 0)).toBe(7);
    expect(() => wholeOf('0', 'maxVisits', 1, null)).toThrow('maxVisits "0" is not a whole number of at least 1');
    expect(() => wholeOf('1e3', 'visits', 0, 0)).toThrow(UnreadableValue);
    expect(() => wholeOf('-1', 'visits', 0, 0)).toThrow(UnreadableValue);
  });

  it('splits tags on | (else on ,) as shlink-importer does, and takes codes from short URLs', () => {
    expect(tagsOf('a|b, c')).toEqual(['a', 'b, c']);
    expect(tagsOf('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(tagsOf('')).toEqual([]);
    expect(codeOfShortUrl('https://bit.ly/3xYzAbC')).toBe('3xYzAbC');
    expect(codeOfShortUrl('go.example.com/spring')).toBe('spring');
    expect(codeOfShortUrl('https://bit.ly/')).toBeNull();
    expect(codeOfShortUrl('')).toBeNull();
  });
});
