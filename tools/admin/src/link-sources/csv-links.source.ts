import { csvSource, type CsvRow } from './csv-records.js';
import { UnreadableValue, type LinkSource, type SourceItem } from './imported-link.js';
import { codelessOrigin, originOf } from './source-origin.js';
import { dateOf, tagsOf, textOf, wholeOf } from './source-values.js';

/**
 * A row of our own CSV (the columns of the shortener's `EXPORT_CSV_COLUMNS`, as
 * `GET /links/export?format=csv` writes them; only `url` is required) as a link; a value that
 * cannot be read refuses the row.
 */
export function linkOfCsvRow({ row, cells }: CsvRow): SourceItem {
  const at = `row ${row}`;
  const code = textOf(cells.code);
  try {
    return {
      ok: true,
      link: {
        at,
        origin: code === null ? codelessOrigin(cells.url, cells.credit, cells.createdat) : originOf(code),
        code,
        url: (cells.url ?? '').trim(),
        // A credit keeps its inner line breaks; the credit rules decide whether it is acceptable.
        credit: textOf(cells.credit),
        createdAt: dateOf(cells.createdat, 'createdAt'),
        tags: tagsOf(cells.tags),
        expiresAt: dateOf(cells.expiresat, 'expiresAt'),
        maxVisits: wholeOf(cells.maxvisits, 'maxVisits', 1, null),
        visits: wholeOf(cells.visits, 'visits', 0, 0),
      },
    };
  } catch (error) {
    if (error instanceof UnreadableValue) return { ok: false, at, code, reason: error.message };
    throw error;
  }
}

/** `--from csv <file>`. */
export const csvLinksSource = (file: string): Promise<LinkSource> => csvSource(file, ['url'], linkOfCsvRow);
