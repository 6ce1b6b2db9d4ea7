import { body, param } from 'express-validator';
import { existingCode, managementCode } from './short-url-fields.validation.js';

export interface DeleteShortUrlInput {
  code: string;
  managementCode: string;
}

/** DELETE /:code {managementCode}. */
export const deleteShortUrlValidation = [managementCode(), existingCode(param('code'))];

/** POST /delete {code, managementCode}: the compatibility alias. */
export const deleteShortUrlAliasValidation = [managementCode(), existingCode(body('code'))];
