import { describe, expect, it } from 'vitest';
import { CREDIT_NOT_TEXT, creditLength, fitsCredit } from './credit-text.js';

describe('the credit rule', () => {
  it.each([
    ['CR/LF', 'a\r\nb'],
    ['NUL', 'a\u0000b'],
    ['a C1 control', 'a\u0085b'],
    ['the line separator', 'a\u2028b'],
    ['the paragraph separator', 'a\u2029b'],
    ['a right-to-left override', 'Fox\u202Egpj.exe'],
    ['an isolate', 'a\u2066b'],
    ['a right-to-left mark', 'a\u200Fb'],
    ['the Arabic letter mark', 'a\u061Cb'],
    ['a lone surrogate', 'a\ud800b'],
  ])('refuses %s', (_label, text) => {
    expect(CREDIT_NOT_TEXT.test(text)).toBe(true);
  });

  it('keeps emoji sequences, right-to-left scripts and accents', () => {
    for (const text of ['👨‍👩‍👧 family', 'שלום', 'مرحبا', 'Zoë', '狐 Fox']) expect(CREDIT_NOT_TEXT.test(text)).toBe(false);
  });

  it('counts code points, so an emoji is one character of the 50', () => {
    expect(creditLength('🦊'.repeat(50))).toBe(50);
    expect(fitsCredit('🦊'.repeat(50))).toBe(true);
    expect(fitsCredit('x'.repeat(51))).toBe(false);
  });
});
