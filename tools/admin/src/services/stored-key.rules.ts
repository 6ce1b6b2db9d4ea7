import type { ApiKeyFlag } from '@pawlink/contracts';
import type { ApiKey } from '@pawlink/auth';

/** What becomes of the key a file names, when a command wants one with `flags`. */
export type StoredKeyVerdict =
  | { action: 'reuse' }
  /** A new key is made; `revoke` when the stored one is still active (it is replaced, so it is retired). */
  | { action: 'replace'; why: string; revoke: boolean };

/**
 * The stored key is reused while it is active, not disabled and carries every flag wanted. A key
 * that lacks a flag is replaced and retired; a revoked or disabled one stays as it is (an operator
 * disabled it, or it is already inactive); a key this database does not know is simply replaced.
 */
export function verdictOnStoredKey(stored: ApiKey | null, flags: readonly ApiKeyFlag[]): StoredKeyVerdict {
  if (!stored) return { action: 'replace', why: 'no key stored there is known to this database', revoke: false };
  if (!stored.active) return { action: 'replace', why: `API key ${stored.id} was revoked`, revoke: false };
  if (stored.disabled) return { action: 'replace', why: `API key ${stored.id} is disabled`, revoke: false };
  const missing = flags.filter((flag) => !stored.flags.includes(flag));
  if (missing.length > 0)
    return { action: 'replace', why: `API key ${stored.id} lacks the flag(s) ${missing.join(', ')}`, revoke: true };
  return { action: 'reuse' };
}

/** Keys other than `except` that are usable and named with `prefix` (keys another start left, or another data directory's). */
export function otherUsableKeys(keys: readonly ApiKey[], prefix: string, except: number): ApiKey[] {
  return keys.filter((key) => key.id !== except && key.active && !key.disabled && key.name.startsWith(prefix));
}
