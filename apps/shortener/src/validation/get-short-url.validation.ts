import { param } from 'express-validator';
import { existingCode } from './short-url-fields.validation.js';

export interface GetShortUrlInput {
  code: string;
}

/** GET /:code.json: a malformed code cannot exist (1075). */
export const getShortUrlValidation = [existingCode(param('code'))];
