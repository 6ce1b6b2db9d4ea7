import { LINK_PASSWORD_MAX_LENGTH, LINK_PASSWORD_MIN_LENGTH } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost: N = 2^15, r = 8, p = 1 (32 MiB and ~40–100 ms a hash here), above the 2^14 of
 * interactive logins in the scrypt paper; OWASP's 2^17 would take 128 MiB per concurrent check on
 * a redirect server. The parameters are stored with each hash, so raising them later only changes
 * new hashes.
 */
const COST: Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>> = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PREFIX = 'scrypt';

const derive = (password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    // maxmem: 128·N·r bytes and some room (node's default, 32 MiB, is exactly N = 2^15's need).
    const maxmem = 128 * (options.N ?? COST.N) * (options.r ?? COST.r) * 2;
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

/** A password's length as a person counts it (a character outside the BMP counts once). */
const charactersOf = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** `password` as sent: a string of 8 to 128 characters (422 1088); null (PATCH: remove it) passes through. */
export function parseLinkPassword(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string')
    throw new ApiError('INVALID_PASSWORD', {
      message: 'The provided password must be a string, or null to remove it.',
    });
  const length = charactersOf(value);
  if (length < LINK_PASSWORD_MIN_LENGTH || length > LINK_PASSWORD_MAX_LENGTH)
    throw new ApiError('INVALID_PASSWORD', {
      message: `The provided password must be ${LINK_PASSWORD_MIN_LENGTH} to ${LINK_PASSWORD_MAX_LENGTH} characters long (it has ${length}).`,
    });
  return value;
}

/** The stored form of a password: `scrypt$N$r$p$salt$key` (base64url), with a fresh random salt. */
export async function hashLinkPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return [PREFIX, COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from, compared in constant time; false for a malformed `stored`. */
export async function verifyLinkPassword(password: string, stored: string): Promise<boolean> {
  const [prefix, n, r, p, salt, key] = stored.split('$');
  if (prefix !== PREFIX || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  // A submitted value longer than any password is wrong without spending a hash on it.
  if (password.length > LINK_PASSWORD_MAX_LENGTH * 2) return false;
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
