import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex. Keys and management codes are 256-bit random, so a fast hash is enough. */
export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A new API key: 32 random bytes, base64url, with a recognisable prefix. */
export const generateApiKey = (): string => `pl_${randomBytes(32).toString('base64url')}`;

export const hashApiKey = sha256;

/** A management code for an editable short URL: 32 random bytes (43 base64url chars). */
export const generateManagementCode = (): string => randomBytes(32).toString('base64url');

export const hashManagementCode = sha256;

/** Constant-time comparison of a presented management code with the stored hash. */
export function verifyManagementCode(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(sha256(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presentedHash.length && timingSafeEqual(presentedHash, stored);
}
