import { MD5_PATTERN, normaliseMd5 } from '@pawlink/contracts';
import { fail } from '@pawlink/service-kit';
import { param, type ValidationChain } from 'express-validator';

/** What `GET /images/:id.json` reads once its chain has passed. */
export interface GetImageInput {
  /** The image's MD5, lower-case. */
  id: string;
}

/** GET /images/:id.json → `{ id }`: an id that is no MD5 names no image (1040); any case is accepted. */
export const getImageValidation: ValidationChain[] = [
  param('id').matches(MD5_PATTERN).withMessage(fail('IMAGE_NOT_FOUND')).bail().customSanitizer(normaliseMd5),
];
