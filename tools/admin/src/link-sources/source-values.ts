import { UnreadableValue } from './imported-link.js';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date as sources write it: ISO 8601 (`2024-05-01T10:00:00Z`, with an offset), or a bare date or
 * `YYYY-MM-DD HH:MM:SS` (YOURLS, spreadsheets) read as UTC. Blank: null.
 */
export function dateOf(value: string | null | undefined, name: string): Date | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (!ISO_DATE_TIME.test(text)) throw new UnreadableValue(`${name} "${text}" is not an ISO 8601 date`);
  const iso = text.replace(' ', 'T');
  const date = new Date(HAS_ZONE.test(iso) || !iso.includes('T') ? iso : `${iso}Z`);
  if (Number.isNaN(date.getTime())) throw new UnreadableValue(`${name} "${text}" is not a date`);
  return date;
}

/** A whole number ≥ `min` (digits only); blank: `blank`. */
export function wholeOf<T extends number | null>(
  value: string | number | null | undefined,
  name: string,
  min: number,
  blank: T,
): number | T {
  if (value === null || value === undefined) return blank;
  const text = String(value).trim();
  if (text === '') return blank;
  if (!/^\d{1,15}$/.test(text) || Number(text) < min)
    throw new UnreadableValue(`${name} "${text}" is not a whole number${min > 0 ? ` of at least ${min}` : ''}`);
  return Number(text);
}

/** Tags written in one field: split on `|`, or on `,` when there is no `|` (as shlink-importer reads them). */
export function tagsOf(value: string | null | undefined): string[] {
  const text = (value ?? '').trim();
  if (text === '') return [];
  const separator = text.includes('|') ? '|' : ',';
  return text
    .split(separator)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** The path of a short URL without its leading slash (`https://bit.ly/abc` → `abc`); null when there is none. */
export function codeOfShortUrl(value: string | null | undefined): string | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  try {
    const parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    const path = decodeURIComponent(parsed.pathname.slice(1));
    return path === '' ? null : path;
  } catch {
    return null;
  }
}

/** A blank-as-null text. */
export const textOf = (value: string | null | undefined): string | null => {
  const text = (value ?? '').trim();
  return text === '' ? null : text;
};
