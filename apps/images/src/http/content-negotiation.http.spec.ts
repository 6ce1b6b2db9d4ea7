import { describe, expect, it } from 'vitest';
import { prefersImage } from './content-negotiation.http.js';

describe('prefersImage', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['application/json, image/*', false],
    ['image/*', true],
    ['image/png', true],
    ['image/*, application/json;q=0.5', true],
    ['application/json;q=0.9, image/webp', true],
    ['image/*;q=0.5, */*', false],
    // Browser navigation (Chrome/Firefox): HTML first, images at the same quality → JSON.
    ['text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8', false],
    // An <img> element's request → bytes.
    ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', true],
    ['image/png;q=0', false],
  ])('%j → %j', (header, expected) => {
    expect(prefersImage(header)).toBe(expected);
  });
});
