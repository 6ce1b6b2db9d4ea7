import { onlyBodyFields } from '@pawlink/service-kit';
import { body, param } from 'express-validator';
import {
  credit,
  existingCode,
  expiresAt,
  managementCode,
  maxVisits,
  targetUrl,
} from './short-url-fields.validation.js';

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
