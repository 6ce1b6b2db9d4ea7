import { SHORT_CODE_MAX_LENGTH } from '@pawlink/contracts';
import { ApiError, fail, onlyBodyFields, parsedBy } from '@pawlink/service-kit';
import { body, query, type ValidationChain } from 'express-validator';
import { credit, expiresAt, maxVisits, targetUrl } from './short-url-fields.validation.js';

/** The values of `editable`; anything else, an empty value or a repeated parameter is 1057. */
const EDITABLE = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

/** `?editable`: `true`/`1` or `false`/`0`; editable when absent. One step: express-validator costs microseconds per step, and every create runs this. */
export const editable = (): ValidationChain =>
  parsedBy(query('editable'), (raw) => {
    const value: unknown = raw ?? 'true';
    const parsed = typeof value === 'string' ? EDITABLE.get(value) : undefined;
    if (parsed === undefined) {
      throw new ApiError('INVALID_QUERY_VALUE', {
        message: `Invalid editable: ${Array.isArray(value) ? 'given more than once' : JSON.stringify(String(value).slice(0, 50))}; give it once, as true, false, 1 or 0.`,
      });
    }
    return parsed;
  });

export interface CreateShortUrlInput {
  editable: boolean;
  code?: string;
  url: string;
  credit?: string;
  expiresAt?: Date | null;
  maxVisits?: number | null;
}

/**
 * The fields a create takes. Any other is 1017, naming it (as PATCH): a client that sends a field
 * we do not know is told, not given a link without what it asked for. The official client (yiffy)
 * sends `url`, `code` and `credit` only.
 */
export const CREATE_FIELDS = ['code', 'url', 'credit', 'expiresAt', 'maxVisits'] as const;

/**
 * POST /create `[?editable=false]` {code?, url, credit?, expiresAt?, maxVisits?}, checked in that
 * order: `editable` (1057), a field it does not take (1017), a custom code (absent or null means a random one; 1071 invalid, empty
 * included, 1070 too long), the url (1073), the credit (1074), expiresAt (1081), maxVisits (1082).
 * Entries are editable unless the query says `editable=false` (or `0`), as the original server made them.
 */
export const createShortUrlValidation = [editable(), ...createShortUrlBodyValidation('POST /create')];

/**
 * The body of one create, {code?, url, credit?, expiresAt?, maxVisits?}, as POST /create and each
 * item of POST /create/bulk check it; `endpoint` names what refuses a field it does not take.
 */
export function createShortUrlBodyValidation(endpoint: string): ValidationChain[] {
  return [
    onlyBodyFields(endpoint, CREATE_FIELDS),
    body('code')
      .optional({ values: 'null' })
      .isString()
      .withMessage(fail('INVALID_CODE', 'The provided code must be a string (A-Z, a-z, 0-9 and -).'))
      .bail()
      .notEmpty()
      .withMessage(fail('INVALID_CODE', 'The provided code is empty: leave it out, or send null, for a random code.'))
      .bail()
      .isLength({ max: SHORT_CODE_MAX_LENGTH })
      .withMessage(fail('CODE_TOO_LONG'))
      .bail()
      .matches(/^[A-Za-z0-9-]+$/)
      .withMessage(fail('INVALID_CODE')),
    targetUrl(body('url')),
    credit(),
    expiresAt(),
    maxVisits(),
  ];
}
