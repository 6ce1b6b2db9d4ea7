import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSealedSecret, parseSecretsKey, sealSecret } from './secrets.rules.js';
import { SecretsKeyMissingError, WebhookSecretService, type WebhookSecretStore } from './webhook-secret.service.js';

function memoryStore(ids: number[]): WebhookSecretStore & { rows: Map<number, string | null> } {
  const rows = new Map<number, string | null>(ids.map((id) => [id, null]));
  return {
    rows,
    setWebhookSecretSealed: (id, sealed) => Promise.resolve(rows.has(id) ? (rows.set(id, sealed), true) : false),
    webhookSecretSealedOf: (id) => Promise.resolve(rows.has(id) ? rows.get(id)! : undefined),
  };
}

describe('WebhookSecretService', () => {
  const secretsKey = randomBytes(32);

  it('rotates: the new secret is current, the old one is gone, and the row holds no clear text', async () => {
    const keys = memoryStore([7]);
    const service = new WebhookSecretService({ keys, secretsKey });
    const first = await service.rotate(7);
    const second = await service.rotate(7);
    expect(second).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(await service.current(7)).toBe(second);
    expect(keys.rows.get(7)).not.toContain(second!.slice('whsec_'.length));
  });

  it('answers null for an unknown key and for a key without a secret', async () => {
    const service = new WebhookSecretService({ keys: memoryStore([1]), secretsKey });
    expect(await service.rotate(2)).toBeNull();
    expect(await service.current(1)).toBeNull();
    expect(await service.current(2)).toBeNull();
  });

  it('refuses to work without PAWLINK_SECRETS_KEY', async () => {
    const service = new WebhookSecretService({ keys: memoryStore([1]), secretsKey: null });
    await expect(service.rotate(1)).rejects.toBeInstanceOf(SecretsKeyMissingError);
    await expect(service.current(1)).rejects.toBeInstanceOf(SecretsKeyMissingError);
  });
});

describe('sealed secrets', () => {
  const key = randomBytes(32);

  it('open only with the same key and row', () => {
    const sealed = sealSecret('whsec_x', key, 3);
    expect(openSealedSecret(sealed, key, 3)).toBe('whsec_x');
    expect(openSealedSecret(sealed, key, 4)).toBeNull();
    expect(openSealedSecret(sealed, randomBytes(32), 3)).toBeNull();
    expect(openSealedSecret(`${sealed}x`, key, 3)).toBeNull();
    expect(openSealedSecret('garbage', key, 3)).toBeNull();
  });

  it('parse PAWLINK_SECRETS_KEY as 64 hex digits or base64 of 32 bytes', () => {
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey('short')).toBeNull();
    expect(parseSecretsKey('')).toBeNull();
  });
});
