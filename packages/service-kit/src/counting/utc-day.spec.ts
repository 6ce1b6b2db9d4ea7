import { describe, expect, it } from 'vitest';
import { firstOfLastDays, nextUtcDayStart, utcDay } from './utc-day.js';

describe('UTC days', () => {
  it('names, ends and counts back UTC days', () => {
    const ms = Date.parse('2026-03-01T23:59:59.999Z');
    expect(utcDay(ms)).toBe('2026-03-01');
    expect(nextUtcDayStart(ms)).toBe(Date.parse('2026-03-02T00:00:00.000Z'));
    expect(firstOfLastDays(ms, 1)).toBe('2026-03-01');
    expect(firstOfLastDays(ms, 90)).toBe('2025-12-02');
  });
});
