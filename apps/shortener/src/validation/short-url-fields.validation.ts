import { DEFAULT_CREDIT, URL_MAX_LENGTH } from '@pawlink/contracts';
import { fail, parsedBy } from '@pawlink/service-kit';
import { body, param, type ValidationChain } from 'express-validator';
import { fitsCredit, NOT_TEXT } from '../services/credit.rules.js';
import { parseExpiresAt, parseMaxVisits } from '../services/expiry.rules.js';
import { isWellFormedCode, SHORT_CODE } from '../services/short-code.rules.js';
import { normaliseTargetUrl } from '../services/target-url.rules.js';

/*
 * The fields several short-url endpoints take, each chain failing with its contract code; each
 * endpoint's own file lists the chains it runs, in order.
 */

/** Where createApp puts SHORTENER_PRIVATE_TARGET_PREFIXES for the target URL rule (`app.locals`). */
export const PRIVATE_TARGET_PREFIXES_LOCAL = 'privateTargetPrefixes';

const privateTargetPrefixesOf = (req: unknown): readonly string[] =>
  ((req as { app?: { locals?: Record<string, unknown> } }).app?.locals?.[PRIVATE_TARGET_PREFIXES_LOCAL] as
    readonly string[] | undefined) ?? [];

const notAString = fail('INVALID_URL', 'The provided url is invalid: url must be a non-empty string.');

/** The target URL: a non-empty string of at most 2048 characters that the URL rules accept (1073); kept normalised. */
export const targetUrl = (chain: ValidationChain): ValidationChain =>
  parsedBy(
    chain
      .custom((value: unknown) => typeof value === 'string' && value !== '')
      .withMessage(notAString)
      .bail()
      .isLength({ max: URL_MAX_LENGTH })
      .withMessage(fail('INVALID_URL', `The provided url is invalid: at most ${URL_MAX_LENGTH} characters.`))
      .bail(),
    (value, { req }) => normaliseTargetUrl(value as string, privateTargetPrefixesOf(req)),
  );

/**
 * A credit: plain text of at most 50 characters after trimming (1074); blank and null mean the
 * default, "Unknown".
 */
export const credit = (): ValidationChain =>
  body('credit')
    .optional()
    .customSanitizer((value: unknown) => (value === null ? '' : value))
    .isString()
    .withMessage(fail('CREDIT_TOO_LONG', 'The provided credit must be a string of at most 50 characters.'))
    .bail()
    .trim()
    .custom(fitsCredit)
    .withMessage(fail('CREDIT_TOO_LONG'))
    .bail()
    .not()
    .matches(NOT_TEXT)
    .withMessage(
      fail(
        'CREDIT_TOO_LONG',
        'The provided credit must be plain text: no control characters, bidirectional controls or broken unicode.',
      ),
    )
    .bail()
    .customSanitizer((value: string) => (value === '' ? DEFAULT_CREDIT : value));

/**
 * `expiresAt`: an ISO 8601 date-time with a zone, in the future (1081); null (or absent) means none,
 * which on PATCH clears it. Kept as a Date, or null.
 */
export const expiresAt = (): ValidationChain =>
  parsedBy(body('expiresAt').optional(), (value) => (value === null ? null : parseExpiresAt(value, new Date())));

/** Whether the body came as an HTML form, whose values are all strings: numbers are then written in digits. */
function isFormBody(req: unknown): boolean {
  const contentType = (req as { headers?: Record<string, unknown> }).headers?.['content-type'];
  return typeof contentType === 'string' && /^\s*application\/x-www-form-urlencoded\b/i.test(contentType);
}

/**
 * `maxVisits`: a whole number from 1 to 2^31-1 (1082), a JSON number (a string is refused, never
 * read as one) or digits in a form body; null (or absent) means unlimited, which on PATCH clears it.
 */
export const maxVisits = (): ValidationChain =>
  parsedBy(body('maxVisits').optional(), (value, { req }) =>
    value === null ? null : parseMaxVisits(value, { digits: isFormBody(req) }),
  );

/** The management code of PATCH and DELETE: a non-empty string, else 1076. */
export const managementCode = (): ValidationChain =>
  body('managementCode')
    .isString()
    .withMessage(fail('MANAGEMENT_CODE_REQUIRED'))
    .bail()
    .notEmpty()
    .withMessage(fail('MANAGEMENT_CODE_REQUIRED'));

/** A code named in the path or the alias body: no entry can have a malformed one (1075). */
export const existingCode = (chain: ValidationChain): ValidationChain =>
  chain
    .isString()
    .withMessage(fail('SHORT_URL_NOT_FOUND'))
    .bail()
    .matches(SHORT_CODE)
    .withMessage(fail('SHORT_URL_NOT_FOUND'));

/** A code in a public path (redirect, preview): browsers follow these, so a malformed code is an unknown one (null), not a JSON error. */
export const publicCode = (): ValidationChain =>
  param('code').customSanitizer((value: unknown) =>
    typeof value === 'string' && isWellFormedCode(value) ? value : null,
  );
