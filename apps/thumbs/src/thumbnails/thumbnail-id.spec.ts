import { describe, expect, it } from 'vitest';
import { orderCheckSegments, parseThumbnailId } from './thumbnail-id.js';

describe('parseThumbnailId', () => {
  it('reads decimal post ids', () => {
    expect(parseThumbnailId('12345')).toEqual({ kind: 'post', postId: 12345 });
    expect(parseThumbnailId('007')).toEqual({ kind: 'post', postId: 7 });
  });

  it('rejects digit strings that cannot be post ids', () => {
    expect(parseThumbnailId('0')).toBe('invalid-post-id');
    expect(parseThumbnailId('99999999999999999999')).toBe('invalid-post-id');
  });

  it('reads 32 decimal digits as an MD5, not an oversized post id', () => {
    expect(parseThumbnailId('12345678901234567890123456789012')).toEqual({ kind: 'md5', md5: '12345678901234567890123456789012' });
    expect(parseThumbnailId('1234567890123456789012345678901')).toBe('invalid-post-id');
  });

  it('lower-cases MD5s', () => {
    expect(parseThumbnailId('D41D8CD98F00B204E9800998ECF8427E')).toEqual({ kind: 'md5', md5: 'd41d8cd98f00b204e9800998ecf8427e' });
  });

  it('reports everything else as an invalid MD5', () => {
    expect(parseThumbnailId('abc')).toBe('invalid-md5');
    expect(parseThumbnailId('d41d8cd98f00b204e9800998ecf8427')).toBe('invalid-md5');
    expect(parseThumbnailId('z41d8cd98f00b204e9800998ecf8427e')).toBe('invalid-md5');
    expect(parseThumbnailId('-12')).toBe('invalid-md5');
  });
});

describe('orderCheckSegments', () => {
  it('accepts both orders', () => {
    expect(orderCheckSegments('abc', 'gif')).toEqual({ md5: 'abc', type: 'gif' });
    expect(orderCheckSegments('png', 'abc')).toEqual({ md5: 'abc', type: 'png' });
    expect(orderCheckSegments('gif', 'png')).toEqual({ md5: 'gif', type: 'png' });
    const md5 = 'd41d8cd98f00b204e9800998ecf8427e';
    expect(orderCheckSegments('webp', md5)).toEqual({ md5, type: 'webp' });
    expect(orderCheckSegments(md5, 'webp')).toEqual({ md5, type: 'webp' });
  });
});
