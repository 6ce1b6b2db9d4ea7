import { describe, expect, it } from 'vitest';
import { bulkTotal, parseBulkBody } from './bulk-body.js';

describe('parseBulkBody', () => {
  it('accepts an object of positive integer counts', () => {
    const requests = parseBulkBody({ 'furry.hug': 2, 'animals.birb': 3 });
    expect(requests).toEqual([
      { db: 'furry.hug', count: 2 },
      { db: 'animals.birb', count: 3 },
    ]);
    expect(bulkTotal(requests)).toBe(5);
  });

  it.each([[[]], [['furry.hug']], ['furry.hug'], [null], [undefined], [42], [{}], [{ a: -1 }], [{ a: 0 }], [{ a: 1.5 }], [{ a: '2' }], [{ a: null }], [{ a: true }], [{ a: 1, b: {} }]])('%j is 1054', (body) => {
    expect(() => parseBulkBody(body)).toThrow(expect.objectContaining({ code: 1054 }));
  });
});
