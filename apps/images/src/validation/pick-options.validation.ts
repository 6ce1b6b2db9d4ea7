import { EXCLUDE_MAX, IMAGE_PICK_TYPES, MD5_PATTERN, type ImagePickType } from '@pawlink/contracts';
import { fail, failWith } from '@pawlink/service-kit';
import { query, type ValidationChain } from 'express-validator';

/** `type=` and `exclude=` as the random and bulk endpoints read them once their chains have passed. */
export interface PickOptionsInput {
  type?: ImagePickType;
  /** Distinct lower-case MD5s. */
  exclude?: string[];
}

const isSingle = (value: unknown): value is string => typeof value === 'string';
const quoted = (value: unknown): string => `"${String(value).slice(0, 50)}"`;
const idsOf = (value: string): string[] => value.split(',');
const firstBadId = (value: string): string | undefined => idsOf(value).find((id) => !MD5_PATTERN.test(id));

/**
 * `exclude` → distinct lower-case MD5s: one value of 1 to 100 comma-separated image ids (MD5s, any
 * case). Absent stays absent; empty, repeated, more ids or anything that is not an MD5 is 1057.
 */
export const excludeQuery: ValidationChain = query('exclude')
  .optional()
  .custom(isSingle).withMessage(fail('INVALID_QUERY_VALUE', `Invalid exclude: give it once, as up to ${EXCLUDE_MAX} comma-separated image ids.`)).bail()
  .custom((value: string) => idsOf(value).length <= EXCLUDE_MAX).withMessage(fail('INVALID_QUERY_VALUE', `Invalid exclude: at most ${EXCLUDE_MAX} image ids.`)).bail()
  .custom((value: string) => firstBadId(value) === undefined)
  .withMessage(failWith('INVALID_QUERY_VALUE', (value) => `Invalid exclude: ${quoted(firstBadId(value as string))} is not an image id (an MD5).`)).bail()
  .customSanitizer((value: string) => [...new Set(idsOf(value).map((id) => id.toLowerCase()))]);

/** `type` → one of gif, png, jpg, webp, animated, still (any case); absent stays absent; anything else is 1057. */
export const typeQuery: ValidationChain = query('type')
  .optional()
  .custom((value: unknown) => isSingle(value) && (IMAGE_PICK_TYPES as readonly string[]).includes(value.toLowerCase()))
  .withMessage(failWith('INVALID_QUERY_VALUE', (value) => `Invalid type: ${quoted(value)} is not one of ${IMAGE_PICK_TYPES.join(', ')}.`)).bail()
  .customSanitizer((value: string) => value.toLowerCase());

export const pickOptionsQueries: ValidationChain[] = [typeQuery, excludeQuery];
