import { onlyBodyFields } from '@pawlink/service-kit';
import { body, param } from 'express-validator';
import { existingCode, managementCode } from './short-url-fields.validation.js';

export interface DeleteShortUrlInput {
  code: string;
  managementCode: string;
}

/** DELETE /:code {managementCode}; any other field is 1017. */
export const deleteShortUrlValidation = [
  onlyBodyFields('DELETE /:code', ['managementCode']),
  managementCode(),
  existingCode(param('code')),
];

/** POST /delete {code, managementCode}: the compatibility alias (what the official client sends); any other field is 1017. */
export const deleteShortUrlAliasValidation = [
  onlyBodyFields('POST /delete', ['code', 'managementCode']),
  managementCode(),
  existingCode(body('code')),
];
