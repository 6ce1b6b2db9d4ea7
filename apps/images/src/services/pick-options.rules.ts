import type { ImagePickType } from '@pawlink/contracts';
import type { PickFilter } from '../repositories/size-index.repository.js';
import type { KeyAccess } from './key-access.rules.js';

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
