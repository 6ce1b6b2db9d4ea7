import { CREDIT_MAX_LENGTH, CREDIT_NOT_TEXT, fitsCredit } from '@pawlink/contracts';

/** Who made an image and where it comes from, as its record shows them. */
export interface ImageCredits {
  artists: string[];
  sources: string[];
  reportUrl: string | null;
  shortUrl: string | null;
}

/** Artists one image may credit. */
export const MAX_ARTISTS = 20;
/** Sources one image may name. */
export const MAX_SOURCES = 10;
/** The longest URL (source, report or short URL) once normalised: the 2048 of the columns and of short URLs. */
export const CREDIT_URL_MAX_LENGTH = 2048;

/** Characters a report names by code point: they would reorder, break or hide the report's line. */
const UNSHOWABLE = /[\p{Cc}\p{Cs}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `text` as a report quotes it: the first 40 code points, unprintable and bidi characters as `\u{…}`. */
export function quoted(text: string): string {
  const points = [...text];
  const head = points
    .slice(0, 40)
    .join('')
    .replace(UNSHOWABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`);
  return `"${head}${points.length > 40 ? '…' : ''}"`;
}

/**
 * An artist by the shortener's credit rule (`@pawlink/contracts` credit-text): trimmed, plain text
 * (no control characters, line separators, bidi controls or broken unicode), 1–50 code points.
 */
export function normaliseArtist(value: string): { artist: string } | { problem: string } {
  const artist = value.trim();
  if (artist === '') return { problem: 'an artist must not be empty' };
  if (CREDIT_NOT_TEXT.test(artist))
    return {
      problem: `artist ${quoted(artist)} is not plain text (no control characters, line separators, bidirectional controls or broken unicode)`,
    };
  if (!fitsCredit(artist))
    return { problem: `artist ${quoted(artist)} is longer than ${CREDIT_MAX_LENGTH} characters` };
  return { artist };
}

/**
 * A source, report or short URL as it is stored: an absolute http(s) URL in its normalised form
 * (WHATWG serialisation: scheme and host lower-case, an internationalised host in punycode, spaces
 * and quotes percent-encoded, so nothing in it is whitespace), at most 2048 characters. Refused:
 * control, line-separator and bidi characters anywhere (the URL parser would drop some of them
 * silently), other schemes, and credentials (`https://trusted.example@evil.example` shows one
 * host and leads to another).
 */
export function normaliseCreditUrl(value: string): { url: string } | { problem: string } {
  const trimmed = value.trim();
  if (trimmed === '') return { problem: 'is empty' };
  if (CREDIT_NOT_TEXT.test(trimmed))
    return { problem: `${quoted(trimmed)} contains control, line-separator or bidirectional characters` };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { problem: `${quoted(trimmed)} is not an absolute http(s) URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { problem: `${quoted(trimmed)} is not an absolute http(s) URL` };
  if (url.username !== '' || url.password !== '')
    return { problem: `${quoted(trimmed)} carries credentials (user@host)` };
  if (url.href.length > CREDIT_URL_MAX_LENGTH)
    return { problem: `${quoted(trimmed)} is longer than ${CREDIT_URL_MAX_LENGTH} characters` };
  return { url: url.href };
}

/**
 * The credits of one file as they are stored, or why the file is refused: at most MAX_ARTISTS
 * artists (`normaliseArtist`) and MAX_SOURCES sources (`normaliseCreditUrl`), each counted once
 * (repeats after normalising are dropped), and normalised report and short URLs.
 */
export function normaliseCredits(credits: ImageCredits): { credits: ImageCredits } | { problem: string } {
  const artists: string[] = [];
  for (const value of credits.artists) {
    const result = normaliseArtist(value);
    if ('problem' in result) return result;
    if (!artists.includes(result.artist)) artists.push(result.artist);
  }
  if (artists.length > MAX_ARTISTS) return { problem: `${artists.length} artists (at most ${MAX_ARTISTS})` };
  const sources: string[] = [];
  for (const value of credits.sources) {
    const result = normaliseCreditUrl(value);
    if ('problem' in result) return { problem: `source ${result.problem}` };
    if (!sources.includes(result.url)) sources.push(result.url);
  }
  if (sources.length > MAX_SOURCES) return { problem: `${sources.length} sources (at most ${MAX_SOURCES})` };
  const single = (name: string, value: string | null): { url: string | null } | { problem: string } => {
    if (value === null) return { url: null };
    const result = normaliseCreditUrl(value);
    return 'problem' in result ? { problem: `${name} ${result.problem}` } : result;
  };
  const reportUrl = single('reportURL', credits.reportUrl);
  if ('problem' in reportUrl) return reportUrl;
  const shortUrl = single('shortURL', credits.shortUrl);
  if ('problem' in shortUrl) return shortUrl;
  return { credits: { artists, sources, reportUrl: reportUrl.url, shortUrl: shortUrl.url } };
}
