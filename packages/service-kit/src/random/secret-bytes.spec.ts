import { describe, expect, it } from 'vitest';
import { secretBytes } from './secret-bytes.js';

describe('secretBytes', () => {
  it('gives the length asked for, and no two secrets alike across many refills of the pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const bytes = secretBytes(32);
      expect(bytes).toHaveLength(32);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(2000);
  });

  it('gives bytes that stay the caller’s: a later draw does not change an earlier one', () => {
    const first = secretBytes(32);
    const copy = Buffer.from(first);
    for (let i = 0; i < 300; i++) secretBytes(32);
    expect(first.equals(copy)).toBe(true);
  });

  it('spreads its bytes over all values (no byte value missing or dominant in 256 KiB)', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 8192; i++) for (const byte of secretBytes(32)) counts[byte]! += 1;
    // 1024 expected per value; a missing or stuck value is far outside these bounds.
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1250);
  });

  it('refuses a length the pool cannot give', () => {
    for (const length of [0, -1, 1.5, 4097]) expect(() => secretBytes(length)).toThrow(RangeError);
  });
});
