import { describe, expect, it } from 'vitest';
import { generateApiKey, generateManagementCode, hashManagementCode, verifyManagementCode } from './secrets.rules.js';

describe('secrets', () => {
  it('makes long, distinct keys and management codes', () => {
    expect(generateApiKey()).toMatch(/^pl_[A-Za-z0-9_-]{43}$/);
    expect(generateManagementCode()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateManagementCode()).not.toBe(generateManagementCode());
  });

  it('verifies management codes against their hash only', () => {
    const code = generateManagementCode();
    const hash = hashManagementCode(code);
    expect(hash).not.toContain(code);
    expect(verifyManagementCode(code, hash)).toBe(true);
    expect(verifyManagementCode(`${code}x`, hash)).toBe(false);
    expect(verifyManagementCode('', hash)).toBe(false);
    expect(verifyManagementCode(code, 'not-a-hash')).toBe(false);
  });
});
