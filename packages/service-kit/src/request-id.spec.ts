import { describe, expect, it } from 'vitest';
import { newRequestId } from './request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newRequestId', () => {
  it('makes ids shaped as version-4 UUIDs, each different, numbered in the last group under one prefix', () => {
    const ids = Array.from({ length: 1_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(0, 28))).size).toBe(1);
    const numbers = ids.map((id) => Number.parseInt(id.slice(28), 16));
    expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)).toBe(true);
  });
});
