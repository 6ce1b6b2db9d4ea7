import { describe, expect, it } from 'vitest';
import { headerValue } from './header-value.js';

describe('headerValue', () => {
  it('joins arrays with ", "', () => {
    expect(headerValue(['a', 'b'])).toBe('a, b');
  });
  it('percent-encodes non-ASCII and control characters', () => {
    expect(headerValue(['Zoë', '狐'])).toBe('Zo%C3%AB, %E7%8B%90');
    expect(headerValue('a\r\nX-Evil: 1')).toBe('a%0D%0AX-Evil: 1');
  });
  it('keeps printable ASCII and numbers', () => {
    expect(headerValue('https://example.com/a?b=c')).toBe('https://example.com/a?b=c');
    expect(headerValue(42)).toBe('42');
  });
});
