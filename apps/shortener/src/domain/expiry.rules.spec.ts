import { describe, expect, it } from 'vitest';
import { expiryOf, parseExpiresAt, parseMaxVisits } from './expiry.rules.js';

const NOW = new Date('2030-01-15T12:00:00.000Z');
const codeOf = (run: () => unknown): number | 'ok' => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return (error as { code: number }).code;
  }
};

describe('parseExpiresAt', () => {
  it.each([
    ['2030-01-15T12:00:01Z', '2030-01-15T12:00:01.000Z'],
    ['2030-01-15T14:01+02:00', '2030-01-15T12:01:00.000Z'],
    ['2030-02-28T00:00:00.5z', '2030-02-28T00:00:00.500Z'],
    ['2032-02-29T00:00:00Z', '2032-02-29T00:00:00.000Z'],
  ])('reads %s', (value, iso) => {
    expect(parseExpiresAt(value, NOW).toISOString()).toBe(iso);
  });

  it.each([
    '2030-01-15T12:00:00Z',
    '2030-01-15T14:00+02:00',
    '2029-12-31T23:59:59Z',
    '2030-02-29T00:00:00Z',
    '2030-04-31T00:00Z',
    '2030-01-16T24:00Z',
    '2030-01-16T10:60Z',
    '2030-01-16T10:00+24:00',
    '2030-01-16',
    '2030-01-16T10:00',
    '+102030-01-16T10:00Z',
    '',
    5,
    null,
    [],
  ])('refuses %j with 1081', (value) => {
    expect(codeOf(() => parseExpiresAt(value, NOW))).toBe(1081);
  });
});

describe('parseMaxVisits', () => {
  it.each([
    [1, 1],
    [2_147_483_647, 2_147_483_647],
  ])('reads %j', (value, expected) => {
    expect(parseMaxVisits(value)).toBe(expected);
  });

  it('reads digits only from a body without numbers (a form)', () => {
    expect(parseMaxVisits('25', { digits: true })).toBe(25);
    expect(codeOf(() => parseMaxVisits('25'))).toBe(1082);
    expect(codeOf(() => parseMaxVisits('5', { digits: false }))).toBe(1082);
  });

  it.each([0, -3, 2.5, 2_147_483_648, '0', ' 4', '4.0', '', 'x', Number.NaN, Infinity, false, {}])(
    'refuses %j with 1082',
    (value) => {
      expect(codeOf(() => parseMaxVisits(value))).toBe(1082);
      expect(codeOf(() => parseMaxVisits(value, { digits: true }))).toBe(1082);
    },
  );
});

describe('expiryOf', () => {
  const base = { expiresAt: null, maxVisits: null, maxVisitsUsed: 0, maxVisitsReachedAt: null };

  it('is null while neither limit is reached', () => {
    expect(expiryOf(base, NOW)).toBeNull();
    expect(
      expiryOf({ ...base, expiresAt: new Date(NOW.getTime() + 1), maxVisits: 2, maxVisitsUsed: 1 }, NOW),
    ).toBeNull();
  });

  it('expires at expiresAt, inclusive', () => {
    expect(expiryOf({ ...base, expiresAt: NOW }, NOW)).toEqual({ reason: 'expiresAt', at: NOW });
  });

  it('expires when the visits are used up, and names the earlier cause when both apply', () => {
    const reached = new Date(NOW.getTime() - 5_000);
    expect(expiryOf({ ...base, maxVisits: 2, maxVisitsUsed: 2, maxVisitsReachedAt: reached }, NOW)).toEqual({
      reason: 'maxVisits',
      at: reached,
    });
    const earlier = new Date(NOW.getTime() - 9_000);
    expect(expiryOf({ expiresAt: earlier, maxVisits: 2, maxVisitsUsed: 3, maxVisitsReachedAt: reached }, NOW)).toEqual({
      reason: 'expiresAt',
      at: earlier,
    });
  });
});
