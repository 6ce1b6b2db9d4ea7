import { IMAGE_PICK_TYPES, type ImagePickType } from '@pawlink/contracts';

/**
 * The `type=` classes an image belongs to: its format (the record's `ext`: gif, png, jpg, webp)
 * and `animated` or `still`. The size index keeps one sorted set per category and class.
 */
export function pickTypesOf(ext: string, animated: boolean): ImagePickType[] {
  const types: ImagePickType[] = [animated ? 'animated' : 'still'];
  if ((IMAGE_PICK_TYPES as readonly string[]).includes(ext)) types.unshift(ext as ImagePickType);
  return types;
}
