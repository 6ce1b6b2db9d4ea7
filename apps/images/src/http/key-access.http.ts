import { apiKeyOf } from '@pawlink/auth';
import type { Response } from 'express';
import type { KeyAccess } from '../domain/key-access.rules.js';

/** What the request's key allows (nothing narrower without a key). */
export const keyAccessOf = (res: Response): KeyAccess => ({
  sfwOnly: apiKeyOf(res)?.flags.includes('sfw_only') ?? false,
});
