import { describe, expect, it } from 'vitest';
import { firstOfLastDays, nextUtcDayStart, utcDay } from './visit-day.rules.js';
import { isBotAgent, isCountedVisit } from './visitor.rules.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';

describe('isCountedVisit', () => {
  it('counts GETs by browsers and by clients without a user agent', () => {
    expect(isCountedVisit('GET', FIREFOX)).toBe(true);
    expect(isCountedVisit('GET', undefined)).toBe(true);
  });

  it('does not count bots, scripts or HEAD requests', () => {
    expect(isCountedVisit('GET', 'Googlebot/2.1 (+http://www.google.com/bot.html)')).toBe(false);
    expect(isCountedVisit('GET', 'curl/8.5.0')).toBe(false);
    expect(isCountedVisit('GET', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)')).toBe(false);
    expect(isCountedVisit('HEAD', FIREFOX)).toBe(false);
  });

  it('answers the same from its memo as from the classifier', () => {
    for (let i = 0; i < 3; i++) {
      expect(isBotAgent(FIREFOX)).toBe(false);
      expect(isBotAgent('Twitterbot/1.0')).toBe(true);
    }
  });
});

describe('UTC days', () => {
  it('names, ends and counts back UTC days', () => {
    const ms = Date.parse('2026-03-01T23:59:59.999Z');
    expect(utcDay(ms)).toBe('2026-03-01');
    expect(nextUtcDayStart(ms)).toBe(Date.parse('2026-03-02T00:00:00.000Z'));
    expect(firstOfLastDays(ms, 1)).toBe('2026-03-01');
    expect(firstOfLastDays(ms, 90)).toBe('2025-12-02');
  });
});
