import {
  QR_FORMATS,
  QR_MARGIN_DEFAULT,
  QR_MARGIN_MAX,
  QR_SIZE_DEFAULT,
  QR_SIZE_MAX,
  QR_SIZE_MIN,
  type QrFormat,
} from '@pawlink/contracts';
import { failWith } from '@pawlink/service-kit';
import { param, query } from 'express-validator';
import { isSingle, quoted, wholeNumberQuery } from './query-values.validation.js';
import { existingCode } from './short-url-fields.validation.js';

export interface GetShortUrlQrInput {
  code: string;
  format: QrFormat;
  size: number;
  margin: number;
}

/**
 * GET /:code/qr `?format&size&margin`: a malformed code cannot exist (404 1075); then, each 400
 * 1057 when bad, `format` svg (default) or png, `size` 64–2048 (default 512), `margin` 0–8 (default 2).
 */
export const getShortUrlQrValidation = [
  existingCode(param('code')),
  query('format')
    .customSanitizer((value: unknown) => value ?? 'svg')
    .custom((value: unknown) => isSingle(value) && (QR_FORMATS as readonly string[]).includes(value))
    .withMessage(
      failWith(
        'INVALID_QUERY_VALUE',
        (value) =>
          `Invalid format: ${isSingle(value) ? quoted(value) : 'given more than once'}; give it once, as svg or png.`,
      ),
    ),
  wholeNumberQuery('size', { min: QR_SIZE_MIN, max: QR_SIZE_MAX, fallback: QR_SIZE_DEFAULT }),
  wholeNumberQuery('margin', { min: 0, max: QR_MARGIN_MAX, fallback: QR_MARGIN_DEFAULT }),
];
