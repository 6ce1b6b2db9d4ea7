import { IMAGE_BYTES_HEADERS, type ImageRecord } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import { headerValue, imageBytesHeaders } from './image-headers.js';

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
