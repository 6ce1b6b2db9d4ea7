import { DEFAULT_CREDIT, SHORT_CODE_MAX_LENGTH, URL_MAX_LENGTH } from '@pawlink/contracts';
import { fail, failWith, onlyBodyFields, parsedBy } from '@pawlink/service-kit';
import { body, param, query, type ValidationChain } from 'express-validator';
import { fitsCredit, NOT_TEXT } from '../services/credit.rules.js';
import { parseExpiresAt, parseMaxVisits } from '../services/expiry.rules.js';
import { SHORT_CODE } from '../services/short-code.rules.js';
import { normaliseTargetUrl } from '../services/target-url.rules.js';

/** Where createApp puts SHORTENER_PRIVATE_TARGET_PREFIXES for the target URL rule (`app.locals`). */
export const PRIVATE_TARGET_PREFIXES_LOCAL = 'privateTargetPrefixes';

const privateTargetPrefixesOf = (req: unknown): readonly string[] =>
  ((req as { app?: { locals?: Record<string, unknown> } }).app?.locals?.[PRIVATE_TARGET_PREFIXES_LOCAL] as readonly string[] | undefined) ?? [];

const notAString = fail('INVALID_URL', 'The provided url is invalid: url must be a non-empty string.');

/** The target URL: a non-empty string of at most 2048 characters that the URL rules accept (1073); kept normalised. */
const targetUrl = (chain: ValidationChain): ValidationChain =>
  parsedBy(
    chain
      .isString().withMessage(notAString).bail()
      .notEmpty().withMessage(notAString).bail()
      .isLength({ max: URL_MAX_LENGTH }).withMessage(fail('INVALID_URL', `The provided url is invalid: at most ${URL_MAX_LENGTH} characters.`)).bail(),
    (value, { req }) => normaliseTargetUrl(value as string, privateTargetPrefixesOf(req)),
  );

/**
 * A credit: plain text of at most 50 characters after trimming (1074); blank and null mean the
 * default, "Unknown".
 */
const credit = (): ValidationChain =>
  body('credit')
    .optional()
    .customSanitizer((value: unknown) => (value === null ? '' : value))
    .isString().withMessage(fail('CREDIT_TOO_LONG', 'The provided credit must be a string of at most 50 characters.')).bail()
    .trim()
    .custom(fitsCredit).withMessage(fail('CREDIT_TOO_LONG')).bail()
    .not().matches(NOT_TEXT).withMessage(fail('CREDIT_TOO_LONG', 'The provided credit must be plain text: no control characters, bidirectional controls or broken unicode.')).bail()
    .customSanitizer((value: string) => (value === '' ? DEFAULT_CREDIT : value));

/**
 * `expiresAt`: an ISO 8601 date-time with a zone, in the future (1081); null (or absent) means none,
 * which on PATCH clears it. Kept as a Date, or null.
 */
const expiresAt = (): ValidationChain => parsedBy(body('expiresAt').optional(), (value) => (value === null ? null : parseExpiresAt(value, new Date())));

/** Whether the body came as an HTML form, whose values are all strings: numbers are then written in digits. */
function isFormBody(req: unknown): boolean {
  const contentType = (req as { headers?: Record<string, unknown> }).headers?.['content-type'];
  return typeof contentType === 'string' && /^\s*application\/x-www-form-urlencoded\b/i.test(contentType);
}

/**
 * `maxVisits`: a whole number from 1 to 2^31-1 (1082), a JSON number (a string is refused, never
 * read as one) or digits in a form body; null (or absent) means unlimited, which on PATCH clears it.
 */
const maxVisits = (): ValidationChain =>
  parsedBy(body('maxVisits').optional(), (value, { req }) => (value === null ? null : parseMaxVisits(value, { digits: isFormBody(req) })));

/** The management code of PATCH and DELETE: a non-empty string, else 1076. */
const managementCode = (): ValidationChain =>
  body('managementCode')
    .isString().withMessage(fail('MANAGEMENT_CODE_REQUIRED')).bail()
    .notEmpty().withMessage(fail('MANAGEMENT_CODE_REQUIRED'));

/** A code named in the path or the alias body: no entry can have a malformed one (1075). */
const existingCode = (chain: ValidationChain): ValidationChain =>
  chain.isString().withMessage(fail('SHORT_URL_NOT_FOUND')).bail().matches(SHORT_CODE).withMessage(fail('SHORT_URL_NOT_FOUND'));

/** The values of `editable`; anything else, an empty value or a repeated parameter is 1057. */
const EDITABLE = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

/** `?editable`: `true`/`1` or `false`/`0`; editable when absent. */
const editable = (): ValidationChain =>
  query('editable')
    .customSanitizer((value: unknown) => value ?? 'true')
    .custom((value: unknown) => typeof value === 'string' && EDITABLE.has(value))
    .withMessage(failWith('INVALID_QUERY_VALUE', (value) => `Invalid editable: ${Array.isArray(value) ? 'given more than once' : JSON.stringify(String(value).slice(0, 50))}; give it once, as true, false, 1 or 0.`))
    .bail()
    .customSanitizer((value: string) => EDITABLE.get(value));

export interface CreateShortUrlInput {
  editable: boolean;
  code?: string;
  url: string;
  credit?: string;
  expiresAt?: Date | null;
  maxVisits?: number | null;
}

/**
 * POST /create `[?editable=false]` {code?, url, credit?, expiresAt?, maxVisits?}, checked in that
 * order: `editable` (1057), a custom code (absent or null means a random one; 1071 invalid, empty
 * included, 1070 too long), the url (1073), the credit (1074), expiresAt (1081), maxVisits (1082).
 * Entries are editable unless the query says `editable=false` (or `0`), as the original server made them.
 */
export const createShortUrlValidation = [
  editable(),
  body('code')
    .optional({ values: 'null' })
    .isString().withMessage(fail('INVALID_CODE', 'The provided code must be a string (A-Z, a-z, 0-9 and -).')).bail()
    .notEmpty().withMessage(fail('INVALID_CODE', 'The provided code is empty: leave it out, or send null, for a random code.')).bail()
    .isLength({ max: SHORT_CODE_MAX_LENGTH }).withMessage(fail('CODE_TOO_LONG')).bail()
    .matches(/^[A-Za-z0-9-]+$/).withMessage(fail('INVALID_CODE')),
  targetUrl(body('url')),
  credit(),
  expiresAt(),
  maxVisits(),
];

export interface UpdateShortUrlInput {
  code: string;
  managementCode: string;
  url?: string;
  credit?: string;
  expiresAt?: Date | null;
  maxVisits?: number | null;
}

/** The fields PATCH takes; any other is 1017, so an edit never half-applies what the client meant. */
const UPDATE_FIELDS = ['managementCode', 'url', 'credit', 'expiresAt', 'maxVisits'] as const;

/**
 * PATCH /:code {managementCode, url?, credit?, expiresAt?, maxVisits?}: a field it does not take
 * (1017), 1076, then the code (1075), then 1073 / 1074 / 1081 / 1082 for what is given.
 */
export const updateShortUrlValidation = [
  onlyBodyFields('PATCH', UPDATE_FIELDS),
  managementCode(),
  existingCode(param('code')),
  targetUrl(body('url').optional()),
  credit(),
  expiresAt(),
  maxVisits(),
];

export interface DeleteShortUrlInput {
  code: string;
  managementCode: string;
}

/** DELETE /:code {managementCode}. */
export const deleteShortUrlValidation = [managementCode(), existingCode(param('code'))];

/** POST /delete {code, managementCode}: the compatibility alias. */
export const deleteShortUrlAliasValidation = [managementCode(), existingCode(body('code'))];

export interface ShortUrlCodeInput {
  code: string;
}

/** GET /:code.json and GET /:code/stats: a malformed code cannot exist (1075). */
export const getShortUrlValidation = [existingCode(param('code'))];

export interface PublicCodeInput {
  /** null when the path cannot be a code: the page answers "unknown" without a lookup. */
  code: string | null;
}

/** GET /:code and GET /:code+: browsers follow these, so a malformed code is an unknown one, not a JSON error. */
export const publicCodeValidation = [param('code').customSanitizer((value: unknown) => (typeof value === 'string' && SHORT_CODE.test(value) ? value : null))];
