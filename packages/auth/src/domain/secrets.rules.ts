import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { secretBytes } from '@pawlink/service-kit';

/** SHA-256 hex. Keys and management codes are 256-bit random, so a fast hash is enough. */
export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A new API key: 32 random bytes, base64url, with a recognisable prefix. */
export const generateApiKey = (): string => `pl_${secretBytes(32).toString('base64url')}`;

export const hashApiKey = sha256;

/** A management code for an editable short URL: 32 random bytes (43 base64url chars). */
export const generateManagementCode = (): string => secretBytes(32).toString('base64url');

export const hashManagementCode = sha256;

/** Constant-time comparison of a presented management code with the stored hash. */
export function verifyManagementCode(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(sha256(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presentedHash.length && timingSafeEqual(presentedHash, stored);
}

const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A new webhook secret for signing completion callbacks, in the Standard Webhooks form: `whsec_`
 * and the base64 of 32 random bytes. Secrets made before (docs/adr/0017) are `whsec_` and the
 * base64url of 32 bytes; both forms stay valid.
 */
export const generateWebhookSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${secretBytes(32).toString('base64')}`;

/**
 * The bytes a webhook secret stands for, which key the Standard Webhooks signature: the text after
 * `whsec_`, read as base64 or base64url (padded or not), so a secret made before the standard form
 * (base64url) signs with the same bytes a receiver gets by re-encoding it as base64. Null when the
 * text is not such a secret (fewer than 24 bytes, as the spec asks at least).
 */
export function webhookSecretBytes(secret: string): Buffer | null {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) return null;
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) return null;
  const bytes = Buffer.from(encoded.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length >= 24 ? bytes : null;
}

/**
 * PAWLINK_SECRETS_KEY: the AES-256 key that seals secrets the services must read back (webhook
 * secrets), so a database dump alone does not reveal them. 64 hex digits or base64 of 32 bytes;
 * null when the text is neither.
 */
export function parseSecretsKey(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}

const SEALED_VERSION = 'v1';

/**
 * `secret` sealed with AES-256-GCM under `key`: `v1.<iv>.<tag>.<ciphertext>` (base64url). The
 * row's id is authenticated with it, so a sealed value copied to another key's row does not open.
 */
export function sealSecret(secret: string, key: Buffer, rowId: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`api_keys:${rowId}`, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    SEALED_VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

/** The secret inside `sealed`, or null when it was not sealed with `key` for that row (wrong key, tampered, another row's). */
export function openSealedSecret(sealed: string, key: Buffer, rowId: number): string | null {
  const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
  if (version !== SEALED_VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`api_keys:${rowId}`, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
