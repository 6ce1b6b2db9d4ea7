import { normaliseMd5 } from '@pawlink/contracts';
import { InvalidArgumentError } from 'commander';
import { normaliseArtist, normaliseCreditUrl } from '../domain/image-credits.rules.js';

/** Category keys: lower-case segments joined by dots, at least `<group>.<name>`. */
export const CATEGORY_KEY = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/;

export function categoryKey(value: string): string {
  const key = value.trim();
  if (!CATEGORY_KEY.test(key) || key.length > 100) {
    throw new InvalidArgumentError(
      'expected a category key like "furry.hug" (lower-case letters, digits, _ and -, segments joined by dots, at most 100 characters).',
    );
  }
  return key;
}

/**
 * Control characters (terminal escapes, NUL, line breaks) and lone surrogates: they would end up
 * in JSON answers, HTTP headers and `category list`, and MySQL's utf8mb4 refuses lone surrogates.
 */
const UNPRINTABLE = /[\p{Cc}\uD800-\uDFFF]/u;

/** Why `value` is not acceptable free text of at most `max` characters, or undefined when it is. */
export function textProblem(value: string, max: number): string | undefined {
  if (value.trim() === '') return 'must not be empty.';
  if (value.length > max) return `must be at most ${max} characters.`;
  if (UNPRINTABLE.test(value)) return 'must not contain control characters.';
  return undefined;
}

function check(problem: string | undefined): void {
  if (problem !== undefined) throw new InvalidArgumentError(problem);
}

export function categoryName(value: string): string {
  const parts = value.split('>').map((part) => part.trim());
  if (parts.length < 2 || parts.some((part) => part === ''))
    throw new InvalidArgumentError('expected a name like "Furry > Hug" (groups joined by " > ").');
  const name = parts.join(' > ');
  check(textProblem(name, 200));
  return name;
}

export function imageId(value: string): string {
  const id = normaliseMd5(value.trim());
  if (id === null) throw new InvalidArgumentError('expected an image id (32 hex characters, the MD5 of the file).');
  return id;
}

export function text(max: number) {
  return (value: string): string => {
    const trimmed = value.trim();
    check(textProblem(trimmed, max));
    return trimmed;
  };
}

/** `--artist`: an artist by the credit rule (`normaliseArtist`). */
export function artistName(value: string): string {
  const result = normaliseArtist(value);
  if ('problem' in result) throw new InvalidArgumentError(`${result.problem}.`);
  return result.artist;
}

/** `--source`: stored normalised (`normaliseCreditUrl`). */
export function sourceUrl(value: string): string {
  const result = normaliseCreditUrl(value);
  if ('problem' in result) throw new InvalidArgumentError(`the source ${result.problem}.`);
  return result.url;
}
