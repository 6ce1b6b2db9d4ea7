import type { ImagePickType } from '@pawlink/contracts';
import type { KeyAccess } from './key-access.rules.js';

/** Narrows a pick; without either, the pick is the unfiltered one of PICK_SCRIPT. */
export interface PickFilter {
  /** Ids never to pick (at most EXCLUDE_MAX); ids not in the category are ignored. */
  exclude?: readonly string[] | undefined;
  type?: ImagePickType | undefined;
}

/** `type=` and `exclude=` of a random or bulk request, with what the key allows. */
export interface PickOptions extends KeyAccess {
  type?: ImagePickType | undefined;
  /** Lower-case MD5s, never picked while other images fit. */
  exclude?: readonly string[] | undefined;
}

/** The filter a pick narrows to; none (the unfiltered fast path) without `type` and `exclude`. */
export function pickFilter(options: PickOptions): PickFilter | undefined {
  const exclude = options.exclude ?? [];
  return exclude.length === 0 && options.type === undefined ? undefined : { exclude, type: options.type };
}
