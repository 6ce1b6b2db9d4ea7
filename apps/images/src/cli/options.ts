import { InvalidArgumentError } from 'commander';

/** Category keys: lower-case segments joined by dots, at least `<group>.<name>`. */
export const CATEGORY_KEY = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)+$/;

export function categoryKey(value: string): string {
  const key = value.trim();
  if (!CATEGORY_KEY.test(key) || key.length > 100) {
    throw new InvalidArgumentError('expected a category key like "furry.hug" (lower-case letters, digits, _ and -, segments joined by dots, at most 100 characters).');
  }
  return key;
}

export function categoryName(value: string): string {
  const parts = value.split('>').map((part) => part.trim());
  if (parts.length < 2 || parts.some((part) => part === '')) throw new InvalidArgumentError('expected a name like "Furry > Hug" (groups joined by " > ").');
  const name = parts.join(' > ');
  if (name.length > 200) throw new InvalidArgumentError('must be at most 200 characters.');
  return name;
}

export function imageId(value: string): string {
  const id = value.trim().toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(id)) throw new InvalidArgumentError('expected an image id (32 hex characters, the MD5 of the file).');
  return id;
}

export function text(max: number) {
  return (value: string): string => {
    const trimmed = value.trim();
    if (trimmed === '') throw new InvalidArgumentError('must not be empty.');
    if (trimmed.length > max) throw new InvalidArgumentError(`must be at most ${max} characters.`);
    return trimmed;
  };
}

/** A repeatable option: every occurrence is collected. */
export function collect(parse: (value: string) => string) {
  return (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), parse(value)];
}

export function sourceUrl(value: string): string {
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new InvalidArgumentError('expected an absolute http(s) URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an absolute http(s) URL.');
  if (trimmed.length > 2048) throw new InvalidArgumentError('must be at most 2048 characters.');
  return trimmed;
}
