import { param } from 'express-validator';
import { existingCode } from './short-url-fields.validation.js';

export interface GetShortUrlStatsInput {
  code: string;
}

/** GET /:code/stats: a malformed code cannot exist (1075). */
export const getShortUrlStatsValidation = [existingCode(param('code'))];
