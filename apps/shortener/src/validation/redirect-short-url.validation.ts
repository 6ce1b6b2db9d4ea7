import { publicCode } from './short-url-fields.validation.js';

export interface RedirectShortUrlInput {
  /** null when the path cannot be a code: the redirect answers "unknown" without a lookup. */
  code: string | null;
}

/** GET /:code. */
export const redirectShortUrlValidation = [publicCode()];
