import { csvSource, type CsvRow } from './csv-records.js';
import { UnreadableValue, type LinkSource, type SourceItem } from './imported-link.js';
import { originOf } from './source-origin.js';
import { codeOfShortUrl, dateOf, tagsOf, textOf, wholeOf } from './source-values.js';

/**
 * Bitly's export CSV. Bitly documents the fields of a link (API v4 `Bitlink`: `link`, `long_url`,
 * `title`, `created_at`, `tags`, `custom_bitlinks`) and its dashboard export names them as columns
 * (`Link`/`Bitly link`, `Custom link`, `Destination URL`/`Long URL`, `Title`, `Date created`,
 * `Tags`, `Clicks`/`Engagements`). Columns are matched by header key (case, spaces and underscores
 * ignored); the first of each list that the file has is read.
 */
const COLUMNS = {
  url: ['longurl', 'destinationurl', 'destination', 'url'],
  link: ['link', 'bitlylink', 'bitlink', 'shortlink', 'shorturl'],
  custom: ['customlink', 'custombitlink', 'custombitlinks', 'custombackhalf'],
  created: ['createdat', 'datecreated', 'created', 'createddate'],
  clicks: ['clicks', 'totalclicks', 'linkclicks', 'engagements', 'totalengagements'],
  tags: ['tags'],
} as const;

const first = (cells: Record<string, string>, keys: readonly string[]): string | undefined =>
  keys.map((key) => cells[key]).find((value) => value !== undefined && value.trim() !== '');

/** A row of Bitly's CSV: the custom back-half when there is one (the link people know), else the bitlink's. */
export function linkOfBitlyRow({ row, cells }: CsvRow): SourceItem {
  const at = `row ${row}`;
  const bitlink = first(cells, COLUMNS.link);
  const code = codeOfShortUrl(first(cells, COLUMNS.custom)?.split(/[,|]/)[0]) ?? codeOfShortUrl(bitlink);
  if (code === null) return { ok: false, at, code, reason: 'the row has no bitlink' };
  try {
    return {
      ok: true,
      link: {
        at,
        // The bitlink itself (domain and back-half) is its identity at Bitly.
        origin: originOf(textOf(bitlink) ?? code),
        code,
        url: (first(cells, COLUMNS.url) ?? '').trim(),
        credit: null,
        createdAt: dateOf(first(cells, COLUMNS.created), 'created_at'),
        tags: tagsOf(first(cells, COLUMNS.tags)),
        expiresAt: null,
        maxVisits: null,
        visits: wholeOf(first(cells, COLUMNS.clicks), 'clicks', 0, 0),
      },
    };
  } catch (error) {
    if (error instanceof UnreadableValue) return { ok: false, at, code, reason: error.message };
    throw error;
  }
}

/** `--from bitly-csv <file>`: a row without a destination is refused as an invalid url. */
export const bitlyCsvSource = (file: string): Promise<LinkSource> => csvSource(file, [], linkOfBitlyRow);
