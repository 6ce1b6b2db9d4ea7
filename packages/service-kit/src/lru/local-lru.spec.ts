import { describe, expect, it } from 'vitest';
import { LocalLru } from './local-lru.js';

describe('LocalLru', () => {
  it('never holds more than its capacity, however many keys pass through it', () => {
    const lru = new LocalLru<number>(1_000, 60_000);
    for (let i = 0; i < 200_000; i++) lru.set(`k${i}`, i);
    expect(lru.size).toBe(1_000);
    expect(lru.get('k199999')).toBe(199_999);
    expect(lru.get('k0')).toBeUndefined();
  });

  it('keeps the keys that are read while many new keys pass through it', () => {
    const lru = new LocalLru<number>(100, 60_000);
    const hot = Array.from({ length: 50 }, (_, i) => `hot${i}`);
    hot.forEach((key, i) => lru.set(key, i));
    for (let i = 0; i < 10_000; i++) {
      lru.set(`cold${i}`, i);
      if (i % 10 === 0) for (const key of hot) lru.get(key);
    }
    expect(lru.size).toBe(100);
    for (const [i, key] of hot.entries()) expect(lru.get(key)).toBe(i);
  });

  it('drops the least recently used first: a read gives an entry a second chance', () => {
    const lru = new LocalLru<string>(2, 60_000);
    lru.set('a', 'A');
    lru.set('b', 'B');
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C');
    expect(lru.has('b')).toBe(false);
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
  });

  it('holds its capacity when every entry was read', () => {
    const lru = new LocalLru<number>(64, 60_000);
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 64; i++) lru.set(`r${round}-${i}`, i);
      for (let i = 0; i < 64; i++) lru.get(`r${round}-${i}`);
    }
    expect(lru.size).toBe(64);
  });

  it('forgets entries past their lifetime and remembers nothing when its capacity is 0', () => {
    let now = 0;
    const lru = new LocalLru<number>(10, 1_000, () => now);
    lru.set('a', 1);
    now = 999;
    expect(lru.get('a')).toBe(1);
    now = 1_000;
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(0);
    const off = new LocalLru<number>(0, 1_000);
    off.set('a', 1);
    expect(off.size).toBe(0);
  });

  it('does not remember a fill that started before a drop', () => {
    const lru = new LocalLru<number>(10, 60_000);
    const generation = lru.generation;
    lru.delete('x');
    lru.set('x', 1, generation);
    expect(lru.get('x')).toBeUndefined();
  });
});
