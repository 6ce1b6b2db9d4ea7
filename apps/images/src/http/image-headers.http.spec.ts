import { IMAGE_BYTES_HEADERS, type ImageRecord } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import {
  boundedList,
  headerValue,
  imageBytesHeaders,
  YIFFY_HEADER_MAX_BYTES,
  YIFFY_HEADERS_MAX_BYTES,
} from './image-headers.http.js';

describe('headerValue', () => {
  it('joins arrays with ", "', () => {
    expect(headerValue(['a', 'b'])).toBe('a, b');
  });
  it('percent-encodes non-ASCII and control characters', () => {
    expect(headerValue(['Zoë', '狐'])).toBe('Zo%C3%AB, %E7%8B%90');
    expect(headerValue('a\r\nX-Evil: 1')).toBe('a%0D%0AX-Evil: 1');
  });
  it('keeps printable ASCII and numbers', () => {
    expect(headerValue('https://example.com/a?b=c')).toBe('https://example.com/a?b=c');
    expect(headerValue(42)).toBe('42');
  });
});

describe('imageBytesHeaders', () => {
  const image: ImageRecord = {
    id: 'a'.repeat(32),
    url: `http://media.test/images/${'a'.repeat(32)}.png`,
    name: `${'a'.repeat(32)}.png`,
    ext: 'png',
    type: 'image/png',
    size: 1234,
    width: 640,
    height: 480,
    artists: ['Zoë', 'Bob'],
    sources: ['https://example.com/a'],
    reportURL: null,
    shortURL: 'https://short.test/x',
    thumbhash: null,
  };

  it('names every header of the contract, encoded, with an empty value for a null URL', () => {
    const headers = imageBytesHeaders(image);
    expect(Object.keys(headers).sort()).toEqual([...IMAGE_BYTES_HEADERS].sort());
    expect(headers).toMatchObject({
      'X-Yiffy-Artist': 'Zo%C3%AB, Bob',
      'X-Yiffy-Image-Width': '640',
      'X-Yiffy-Image-Size': '1234',
      'X-Yiffy-Short-URL': 'https://short.test/x',
      'X-Yiffy-Report-URL': '',
    });
  });
});

describe('the bound of the X-Yiffy headers', () => {
  const image: ImageRecord = {
    id: 'b'.repeat(32),
    url: `http://media.test/images/${'b'.repeat(32)}.png`,
    name: `${'b'.repeat(32)}.png`,
    ext: 'png',
    type: 'image/png',
    size: 1,
    width: 1,
    height: 1,
    artists: [],
    sources: [],
    reportURL: null,
    shortURL: null,
    thumbhash: null,
  };
  const total = (headers: Record<string, string>): number =>
    Object.entries(headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);

  it('keeps whole entries and marks what it leaves out with "+N more"', () => {
    expect(boundedList(['Ann', 'Bob', 'Cyd'], 100)).toBe('Ann, Bob, Cyd');
    expect(boundedList(['Ann', 'Bob', 'Cyd'], 13)).toBe('Ann, Bob, Cyd');
    expect(boundedList(['Ann', 'Bob', 'Cyd'], 12)).toBe('Ann, +2 more');
    expect(boundedList(['Ann', 'Bob', 'Cyd'], 7)).toBe('+3 more');
    expect(boundedList(['Ann', 'Bob', 'Cyd'], 6)).toBe('');
    expect(boundedList(['x'.repeat(50), 'Bob'], 20)).toBe('+2 more');
  });

  it('stays under the bound for 50 long artists and 20 long sources, the lists sharing the room', () => {
    const headers = imageBytesHeaders({
      ...image,
      artists: Array.from({ length: 50 }, (_, i) => `Artist ${i} ${'狐'.repeat(60)}`),
      sources: Array.from({ length: 20 }, (_, i) => `https://example.com/${i}/${'a'.repeat(2000)}`),
      reportURL: `https://report.example/${'r'.repeat(2000)}`,
    });
    for (const value of Object.values(headers)) expect(value.length).toBeLessThanOrEqual(YIFFY_HEADER_MAX_BYTES);
    expect(total(headers)).toBeLessThanOrEqual(YIFFY_HEADERS_MAX_BYTES);
    expect(headers['X-Yiffy-Artist']).toMatch(/^Artist 0 %E7%8B%90.*, \+\d+ more$/);
    // A single source is longer than the room: only the mark is left.
    expect(headers['X-Yiffy-Source']).toBe('+20 more');
    expect(headers['X-Yiffy-Report-URL']).toBe('');
    expect(headers['X-Yiffy-Image-URL']).toBe(image.url);
  });

  it('gives one list what the other does not need', () => {
    const artists = Array.from({ length: 200 }, (_, i) => `Artist number ${i}`);
    const headers = imageBytesHeaders({ ...image, artists, sources: ['https://example.com/a'] });
    expect(headers['X-Yiffy-Source']).toBe('https://example.com/a');
    expect(headers['X-Yiffy-Artist'].length).toBeGreaterThan(YIFFY_HEADER_MAX_BYTES - 30);
    expect(total(headers)).toBeLessThanOrEqual(YIFFY_HEADERS_MAX_BYTES);
  });

  it('gives up the longest URLs before the lists lose their room', () => {
    const long = `https://short.example/${'s'.repeat(900)}`;
    const headers = imageBytesHeaders({
      ...image,
      url: `http://media.test/${'m'.repeat(900)}`,
      shortURL: long,
      reportURL: long,
      artists: ['Ann'],
    });
    expect(headers['X-Yiffy-Report-URL']).toBe('');
    expect(headers['X-Yiffy-Short-URL']).toBe('');
    expect(headers['X-Yiffy-Artist']).toBe('Ann');
    expect(total(headers)).toBeLessThanOrEqual(YIFFY_HEADERS_MAX_BYTES);
  });
});
