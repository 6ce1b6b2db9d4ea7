import { csvSource, type CsvRow } from './csv-records.js';
import { UnreadableValue, type LinkSource, type SourceItem } from './imported-link.js';
import { originOf } from './source-origin.js';
import { codeOfShortUrl, dateOf, tagsOf, textOf, wholeOf } from './source-values.js';

/**
 * Shlink's CSV export (shlink-web-client's "Export": `createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits`,
 * tags joined with `|`), read as shlink-importer reads a CSV: the code from `shortCode`, else from
 * the path of `shortUrl`.
 */
export function linkOfShlinkRow({ row, cells }: CsvRow): SourceItem {
  const at = `row ${row}`;
  const code = textOf(cells.shortcode) ?? codeOfShortUrl(cells.shorturl);
  if (code === null) return { ok: false, at, code, reason: 'the row has no shortCode or shortUrl' };
  try {
    return {
      ok: true,
      link: {
        at,
        origin: originOf(`${textOf(cells.domain) ?? ''}/${code}`),
        code,
        url: (cells.longurl ?? '').trim(),
        credit: null,
        createdAt: dateOf(cells.createdat ?? cells.datecreated, 'createdAt'),
        tags: tagsOf(cells.tags),
        expiresAt: null,
        maxVisits: null,
        visits: wholeOf(cells.visits, 'visits', 0, 0),
      },
    };
  } catch (error) {
    if (error instanceof UnreadableValue) return { ok: false, at, code, reason: error.message };
    throw error;
  }
}

/** `--from shlink <file>`. */
export const shlinkCsvSource = (file: string): Promise<LinkSource> => csvSource(file, ['longurl'], linkOfShlinkRow);
