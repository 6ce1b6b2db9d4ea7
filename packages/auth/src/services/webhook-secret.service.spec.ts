import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSealedSecret, parseSecretsKey, sealSecret } from '../domain/secrets.rules.js';
import {
  MAX_KEEP_PREVIOUS_MS,
  SecretsKeyMissingError,
  WebhookSecretService,
  type WebhookSecretStore,
} from './webhook-secret.service.js';

interface Row {
  current: string | null;
  previous: string | null;
  previousUntil: Date | null;
}

/** The columns as api_keys holds them, with the repository's rotation rule. */
function memoryStore(ids: number[]): WebhookSecretStore & { rows: Map<number, Row> } {
  const rows = new Map<number, Row>(ids.map((id) => [id, { current: null, previous: null, previousUntil: null }]));
  return {
    rows,
    setWebhookSecretSealed: (id, sealed, keepPreviousUntil = null) => {
      const row = rows.get(id);
      if (!row) return Promise.resolve(false);
      const keep = keepPreviousUntil !== null && row.current !== null;
      rows.set(id, {
        current: sealed,
        previous: keep ? row.current : null,
        previousUntil: keep ? keepPreviousUntil : null,
      });
      return Promise.resolve(true);
    },
    webhookSecretsSealedOf: (id) => Promise.resolve(rows.has(id) ? { ...rows.get(id)! } : undefined),
  };
}

describe('WebhookSecretService', () => {
  const secretsKey = randomBytes(32);

  it('rotates: the new secret is current, the old one is gone, and the row holds no clear text', async () => {
    const keys = memoryStore([7]);
    const service = new WebhookSecretService({ keys, secretsKey });
    const first = await service.rotate(7);
    const second = await service.rotate(7);
    // The Standard Webhooks form: whsec_ and the base64 of 32 bytes.
    expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(second!.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(second).not.toBe(first);
    expect(await service.current(7)).toBe(second);
    expect(await service.signing(7)).toEqual({ current: second, previous: [] });
    expect(JSON.stringify(keys.rows.get(7))).not.toContain(second!.slice('whsec_'.length));
  });

  it('keeps the previous secret signing beside the new one for the time asked, then no longer', async () => {
    let now = 1_700_000_000_000;
    const keys = memoryStore([7]);
    const service = new WebhookSecretService({ keys, secretsKey, clock: () => now });
    const first = await service.rotate(7);
    const second = await service.rotate(7, { keepPreviousMs: 3_600_000 });
    expect(await service.signing(7)).toEqual({ current: second, previous: [first] });
    expect(await service.current(7)).toBe(second);
    now += 3_600_000;
    expect(await service.signing(7)).toEqual({ current: second, previous: [] });
    // A rotation that keeps nothing drops a previous one kept before.
    now -= 1;
    await service.rotate(7);
    expect((await service.signing(7))!.previous).toEqual([]);
    expect(keys.rows.get(7)!.previous).toBeNull();
  });

  it('refuses to keep the previous secret longer than a week, or for a negative time', async () => {
    const service = new WebhookSecretService({ keys: memoryStore([7]), secretsKey });
    await expect(service.rotate(7, { keepPreviousMs: MAX_KEEP_PREVIOUS_MS + 1 })).rejects.toBeInstanceOf(RangeError);
    await expect(service.rotate(7, { keepPreviousMs: -1 })).rejects.toBeInstanceOf(RangeError);
    expect(await service.current(7)).toBeNull();
  });

  it('answers null for an unknown key and for a key without a secret', async () => {
    const service = new WebhookSecretService({ keys: memoryStore([1]), secretsKey });
    expect(await service.rotate(2)).toBeNull();
    expect(await service.current(1)).toBeNull();
    expect(await service.current(2)).toBeNull();
    expect(await service.signing(1)).toBeNull();
  });

  it('refuses to work without PAWLINK_SECRETS_KEY', async () => {
    const service = new WebhookSecretService({ keys: memoryStore([1]), secretsKey: null });
    await expect(service.rotate(1)).rejects.toBeInstanceOf(SecretsKeyMissingError);
    await expect(service.current(1)).rejects.toBeInstanceOf(SecretsKeyMissingError);
    await expect(service.signing(1)).rejects.toBeInstanceOf(SecretsKeyMissingError);
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
