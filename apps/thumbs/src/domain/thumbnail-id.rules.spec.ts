import { isApiError } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { orderCheckSegments, parseThumbnailId } from './thumbnail-id.rules.js';

/** The registry code a rule refuses `raw` with. */
function codeOf(rule: (raw: unknown) => unknown, raw: unknown): number {
  try {
    rule(raw);
  } catch (error) {
    if (isApiError(error)) return error.code;
    throw error;
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`);
}

describe('parseThumbnailId', () => {
  it('reads decimal post ids', () => {
    expect(parseThumbnailId('12345')).toEqual({ kind: 'post', postId: 12345 });
    expect(parseThumbnailId('007')).toEqual({ kind: 'post', postId: 7 });
  });

  it('rejects digit strings that cannot be post ids', () => {
    expect(codeOf(parseThumbnailId, '0')).toBe(1062);
    expect(codeOf(parseThumbnailId, '99999999999999999999')).toBe(1062);
  });

  it('reads 32 decimal digits as an MD5, not an oversized post id', () => {
    expect(parseThumbnailId('12345678901234567890123456789012')).toEqual({
      kind: 'md5',
      md5: '12345678901234567890123456789012',
    });
    expect(codeOf(parseThumbnailId, '1234567890123456789012345678901')).toBe(1062);
  });

  it('lower-cases MD5s', () => {
    expect(parseThumbnailId('D41D8CD98F00B204E9800998ECF8427E')).toEqual({
      kind: 'md5',
      md5: 'd41d8cd98f00b204e9800998ecf8427e',
    });
  });

  it('reports everything else as an invalid MD5', () => {
    expect(codeOf(parseThumbnailId, 'abc')).toBe(1063);
    expect(codeOf(parseThumbnailId, 'd41d8cd98f00b204e9800998ecf8427')).toBe(1063);
    expect(codeOf(parseThumbnailId, 'z41d8cd98f00b204e9800998ecf8427e')).toBe(1063);
    expect(codeOf(parseThumbnailId, '-12')).toBe(1063);
    expect(codeOf(parseThumbnailId, undefined)).toBe(1063);
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
