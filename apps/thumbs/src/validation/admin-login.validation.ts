import { fail } from '@pawlink/service-kit';
import { body, type ValidationChain } from 'express-validator';

/** POST /admin/login → `{ key }`: the API key pasted in the form (or sent as JSON); 1013 when missing. */
export const adminLoginValidation: ValidationChain[] = [
  body('key')
    .isString()
    .withMessage(fail('API_KEY_REQUIRED'))
    .bail()
    .trim()
    .isLength({ min: 1, max: 500 })
    .withMessage(fail('API_KEY_REQUIRED')),
];
