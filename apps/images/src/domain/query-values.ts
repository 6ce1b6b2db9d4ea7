import { AMOUNT_MAX, AMOUNT_MIN } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
const SIZE_WITH_UNIT = /^(\d+(?:\.\d+)?|\.\d+)\s*(b|kb|mb|gb)$/i;
const PLAIN_BYTES = /^\d+$/;

/** A query value as Express gives it: absent, one string, or several (a repeated parameter). */
export type QueryValue = unknown;

const invalid = (name: string, detail: string): ApiError =>
  new ApiError('INVALID_QUERY_VALUE', { message: `Invalid ${name}: ${detail}` });

/**
 * `sizeLimit` in bytes: an integer count of bytes, or a number (decimals allowed) with a
 * B/KB/MB/GB suffix in powers of two, case-insensitive. Absent → undefined; anything else,
 * including empty, negative and repeated values, is 1057. `0` is valid syntax that nothing
 * fits (1041 at the endpoint).
 */
export function parseSizeLimit(value: QueryValue): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid('sizeLimit', 'give it once, as bytes or a number with B, KB, MB or GB.');
  const text = value.trim();
  let bytes: number;
  if (PLAIN_BYTES.test(text)) {
    bytes = Number(text);
  } else {
    const match = SIZE_WITH_UNIT.exec(text);
    if (!match) throw invalid('sizeLimit', `"${value.slice(0, 50)}" is not a byte count or a number with B, KB, MB or GB.`);
    bytes = Math.floor(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
  }
  if (!Number.isSafeInteger(bytes)) throw invalid('sizeLimit', 'the value is too large.');
  return bytes;
}

/** `amount`: an integer from 1 to 5, default 1; below → 1051, above → 1052, not an integer → 1057. */
export function parseAmount(value: QueryValue): number {
  if (value === undefined) return 1;
  if (typeof value !== 'string') throw invalid('amount', 'give it once, as an integer from 1 to 5.');
  const text = value.trim();
  if (!/^[-+]?\d+$/.test(text)) throw invalid('amount', `"${value.slice(0, 50)}" is not an integer.`);
  const amount = Number(text);
  if (amount < AMOUNT_MIN) throw new ApiError('AMOUNT_TOO_LOW');
  if (amount > AMOUNT_MAX) throw new ApiError('AMOUNT_TOO_HIGH');
  return amount;
}

/** Notes are hidden only by the literal `notes=disabled`. */
export const notesDisabled = (value: QueryValue): boolean => value === 'disabled' || (Array.isArray(value) && value.includes('disabled'));
