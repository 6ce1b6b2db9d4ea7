import { fail } from '@pawlink/service-kit';
import { param, type ValidationChain } from 'express-validator';
import { isCategoryKey } from '../services/category-key.rules.js';

/** What `GET /categories/:db` reads once its chain has passed. */
export interface GetCategoryInput {
  db: string;
}

/** GET /categories/:db → `{ db }`: a key that cannot name a category is unknown (1030). */
export const getCategoryValidation: ValidationChain[] = [
  param('db').custom(isCategoryKey).withMessage(fail('CATEGORY_NOT_FOUND')),
];
