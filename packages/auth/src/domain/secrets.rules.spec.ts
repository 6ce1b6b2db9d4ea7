import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  generateApiKey,
  generateManagementCode,
  generateWebhookSecret,
  hashManagementCode,
  verifyManagementCode,
  webhookSecretBytes,
} from './secrets.rules.js';

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

describe('webhook secrets', () => {
  it('are made in the Standard Webhooks form and stand for their 32 bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretBytes(secret)).toEqual(Buffer.from(secret.slice(6), 'base64'));
  });

  it('read a secret of the form made before (base64url) as the bytes its base64 form gives', () => {
    const bytes = randomBytes(32);
    expect(webhookSecretBytes(`whsec_${bytes.toString('base64url')}`)).toEqual(bytes);
    expect(webhookSecretBytes(`whsec_${bytes.toString('base64')}`)).toEqual(bytes);
    expect(webhookSecretBytes(`whsec_${bytes.toString('base64').replace(/=+$/, '')}`)).toEqual(bytes);
  });

  it('refuse what is not a secret: no prefix, other characters, fewer than 24 bytes', () => {
    const bytes = randomBytes(32);
    expect(webhookSecretBytes(bytes.toString('base64'))).toBeNull();
    expect(webhookSecretBytes(`whsec_${bytes.toString('hex')}!`)).toBeNull();
    expect(webhookSecretBytes(`whsec_${randomBytes(23).toString('base64')}`)).toBeNull();
    expect(webhookSecretBytes('whsec_')).toBeNull();
  });
});
