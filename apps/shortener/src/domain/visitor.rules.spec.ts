import { describe, expect, it } from 'vitest';
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
