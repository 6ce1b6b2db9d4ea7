import { EXCLUDE_MAX, IMAGE_PICK_TYPES, MD5_PATTERN, type ImagePickType } from '@pawlink/contracts';
import { fail, failWith } from '@pawlink/service-kit';
import { query, type ValidationChain } from 'express-validator';

/** `sizeLimit=`, `type=` and `exclude=` as the random and bulk endpoints read them once their chains have passed. */
export interface PickOptionsInput {
  /** Bytes; absent when the client gave none. */
  sizeLimit?: number;
  type?: ImagePickType;
  /** Distinct lower-case MD5s. */
  exclude?: string[];
}

/** A query value given once (a repeated parameter arrives as an array). */
const isSingle = (value: unknown): value is string => typeof value === 'string';
/** How a value is quoted in a message: its first 50 characters. */
const quoted = (value: unknown): string => `"${String(value).slice(0, 50)}"`;
const idsOf = (value: string): string[] => value.split(',');
const firstBadId = (value: string): string | undefined => idsOf(value).find((id) => !MD5_PATTERN.test(id));

const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
/** A count of bytes, or a number (decimals allowed) with a unit; surrounding whitespace allowed. */
const SIZE_LIMIT = /^\s*(?:\d+|(?:\d+(?:\.\d+)?|\.\d+)\s*(?:b|kb|mb|gb))\s*$/i;
const SIZE_WITH_UNIT = /^(\d+(?:\.\d+)?|\.\d+)\s*(b|kb|mb|gb)$/i;

/** The bytes a value that matched SIZE_LIMIT stands for (units are powers of two). */
function sizeLimitBytes(value: string): number {
  const text = value.trim();
  const withUnit = SIZE_WITH_UNIT.exec(text);
  return withUnit ? Math.floor(Number(withUnit[1]) * UNIT_BYTES[withUnit[2]!.toLowerCase()]!) : Number(text);
}

/**
 * `sizeLimit` → bytes: an integer count of bytes, or a number (decimals allowed) with a
 * B/KB/MB/GB suffix in powers of two, case-insensitive. Absent stays absent; anything else,
 * including empty, negative and repeated values, is 1057. `0` is valid syntax that nothing fits
 * (1041 at the endpoint).
 */
export const sizeLimitQuery: ValidationChain = query('sizeLimit')
  .optional()
  .custom(isSingle)
  .withMessage(
    fail('INVALID_QUERY_VALUE', 'Invalid sizeLimit: give it once, as bytes or a number with B, KB, MB or GB.'),
  )
  .bail()
  .matches(SIZE_LIMIT)
  .withMessage(
    failWith(
      'INVALID_QUERY_VALUE',
      (value) => `Invalid sizeLimit: ${quoted(value)} is not a byte count or a number with B, KB, MB or GB.`,
    ),
  )
  .bail()
  .customSanitizer(sizeLimitBytes)
  .custom((bytes: number) => Number.isSafeInteger(bytes))
  .withMessage(fail('INVALID_QUERY_VALUE', 'Invalid sizeLimit: the value is too large.'));

/**
 * `exclude` → distinct lower-case MD5s: one value of 1 to 100 comma-separated image ids (MD5s, any
 * case). Absent stays absent; empty, repeated, more ids or anything that is not an MD5 is 1057.
 */
export const excludeQuery: ValidationChain = query('exclude')
  .optional()
  .custom(isSingle)
  .withMessage(
    fail('INVALID_QUERY_VALUE', `Invalid exclude: give it once, as up to ${EXCLUDE_MAX} comma-separated image ids.`),
  )
  .bail()
  .custom((value: string) => idsOf(value).length <= EXCLUDE_MAX)
  .withMessage(fail('INVALID_QUERY_VALUE', `Invalid exclude: at most ${EXCLUDE_MAX} image ids.`))
  .bail()
  .custom((value: string) => firstBadId(value) === undefined)
  .withMessage(
    failWith(
      'INVALID_QUERY_VALUE',
      (value) => `Invalid exclude: ${quoted(firstBadId(value as string))} is not an image id (an MD5).`,
    ),
  )
  .bail()
  .customSanitizer((value: string) => [...new Set(idsOf(value).map((id) => id.toLowerCase()))]);

/** `type` → one of gif, png, jpg, webp, animated, still (any case); absent stays absent; anything else is 1057. */
export const typeQuery: ValidationChain = query('type')
  .optional()
  .custom((value: unknown) => isSingle(value) && (IMAGE_PICK_TYPES as readonly string[]).includes(value.toLowerCase()))
  .withMessage(
    failWith(
      'INVALID_QUERY_VALUE',
      (value) => `Invalid type: ${quoted(value)} is not one of ${IMAGE_PICK_TYPES.join(', ')}.`,
    ),
  )
  .bail()
  .customSanitizer((value: string) => value.toLowerCase());

/** The options of a pick, in the order their failures are reported: sizeLimit, type, exclude. */
export const pickOptionsQueries: ValidationChain[] = [sizeLimitQuery, typeQuery, excludeQuery];
