import { ApiError } from '@pawlink/service-kit';
import type { CategoryRow } from '../db/entities/category.entity.js';
import { quotedKey } from './category-key.rules.js';

/** What the caller's key allows: with `sfwOnly` (the key's `sfw_only` flag) only SFW categories. */
export interface KeyAccess {
  sfwOnly?: boolean | undefined;
}

/** 403 1058 for a non-SFW category asked for with an `sfw_only` key. */
export function refuseUnlessSfw(access: KeyAccess, row: CategoryRow): void {
  if (access.sfwOnly && !row.sfw)
    throw new ApiError('SFW_ONLY_KEY', {
      message: `This API key may only use SFW categories, and ${quotedKey(row.db)} is not one.`,
    });
}
