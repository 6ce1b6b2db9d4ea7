import { describe, expect, it } from 'vitest';
import { LEASE_SIZING, leaseSize } from './lease-size.rules.js';

const idle = { sharedCount: 0, served: 0, servedOverMs: 0, resetInMs: 0, waiting: 1 };

describe('lease size', () => {
  it('is the waiting requests for a key not seen sending before', () => {
    expect(leaseSize({ ...idle, limit: 1_000_000 })).toBe(1);
    expect(leaseSize({ ...idle, limit: 1_000_000, waiting: 7 })).toBe(7);
  });

  it('is the waiting requests for a small limit, however busy the key', () => {
    expect(leaseSize({ ...idle, limit: LEASE_SIZING.smallLimit - 1, served: 10_000, servedOverMs: 100 })).toBe(1);
  });

  it('grows with the key’s recent rate: what it spends in the horizon at that rate', () => {
    // 400 requests in one second: 100 in 250 ms.
    expect(leaseSize({ ...idle, limit: 1_000_000, sharedCount: 400, served: 400, servedOverMs: 1_000 })).toBe(101);
  });

  it('takes no more than a share of what is left unleased, nor the largest block', () => {
    const busy = { ...idle, served: 1_000_000, servedOverMs: 1_000 };
    expect(leaseSize({ ...busy, limit: 300, sharedCount: 220 })).toBe(1 + 10);
    expect(leaseSize({ ...busy, limit: 300, sharedCount: 295 })).toBe(1);
    expect(leaseSize({ ...busy, limit: 300, sharedCount: 300, waiting: 3 })).toBe(3);
    expect(leaseSize({ ...busy, limit: 1e9 })).toBe(1 + LEASE_SIZING.maxUnits);
  });

  it('asks for no more than the key would spend before the window ends', () => {
    // 4 requests a ms, 10 ms left: 40 more at most.
    expect(leaseSize({ ...idle, limit: 1e9, served: 4_000, servedOverMs: 1_000, resetInMs: 10 })).toBe(41);
  });
});
