import { describe, expect, it } from 'vitest';
import { gifDelayOf } from './gif-timing.rules.js';

describe('gifDelayOf', () => {
  it('rounds to the nearest centisecond, within what a GIF can say', () => {
    expect([gifDelayOf(133), gifDelayOf(4), gifDelayOf(-5), gifDelayOf(1e9)]).toEqual([13, 0, 0, 0xffff]);
  });
});
