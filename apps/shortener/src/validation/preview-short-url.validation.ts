import { publicCode } from './short-url-fields.validation.js';

export interface PreviewShortUrlInput {
  /** null when the path cannot be a code: the page answers "unknown" without a lookup. */
  code: string | null;
}

/** GET /:code+. */
export const previewShortUrlValidation = [publicCode()];
