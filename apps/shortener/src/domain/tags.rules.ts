import { TAG_MAX_LENGTH, TAG_PATTERN, TAGS_MAX } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';

const invalid = (why: string): ApiError =>
  new ApiError('INVALID_TAGS', { message: `The provided tags are invalid: ${why}.` });

/**
 * `tags` as sent → the tags stored: a list of at most 10 strings, each 1–32 characters of a-z,
 * 0-9 and - once lower-cased (upper case is accepted and stored lower-case), each kept once,
 * sorted; anything else is 422 1087 naming the first bad tag.
 */
export function parseTags(value: unknown): string[] {
  if (!Array.isArray(value)) throw invalid(`expected a list of at most ${TAGS_MAX} tags`);
  const tags = new Set<string>();
  for (const [index, raw] of (value as unknown[]).entries()) {
    if (typeof raw !== 'string') throw invalid(`tag ${index} is not a string`);
    const tag = raw.toLowerCase();
    if (!TAG_PATTERN.test(tag))
      throw invalid(
        `tag ${index} (${JSON.stringify(raw.slice(0, 40))}) must be 1 to ${TAG_MAX_LENGTH} characters of a-z, 0-9 and -`,
      );
    tags.add(tag);
  }
  if (tags.size > TAGS_MAX) throw invalid(`at most ${TAGS_MAX} tags, ${tags.size} given`);
  return [...tags].sort();
}

/**
 * `?tag` of `GET /links`, given once or repeated (links carrying all of them): each a tag as
 * `parseTags` takes it, at most 10; anything else is 400 1057, as every bad query value.
 */
export function parseTagFilter(value: unknown): string[] {
  try {
    return parseTags(Array.isArray(value) ? value : [value]);
  } catch {
    throw new ApiError('INVALID_QUERY_VALUE', {
      message: `Invalid tag: give 1 to ${TAGS_MAX} tags (tag=a&tag=b), each 1 to ${TAG_MAX_LENGTH} characters of a-z, 0-9 and -.`,
    });
  }
}
