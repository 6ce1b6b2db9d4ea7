import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { LinkSource, SourceItem } from './imported-link.js';

/** A header cell compared as shlink-importer compares them: lower case, without spaces, dashes or underscores. */
export const headerKey = (cell: string): string => cell.toLowerCase().replace(/[\s_-]+/g, '');

/** One data row: its number (1 is the row after the header) and its cells by header key. */
export interface CsvRow {
  row: number;
  cells: Record<string, string>;
}

/**
 * Reads a CSV file as RFC 4180 (quoted commas, quotes and line breaks in fields), UTF-8 with or
 * without a BOM, the first row naming the columns; streamed, so memory stays bounded whatever its
 * size. `required` header keys must all be there (else the whole file is refused before any row).
 * Each row goes through `toItem`.
 */
export async function csvSource(
  file: string,
  required: readonly string[],
  toItem: (row: CsvRow) => SourceItem,
): Promise<LinkSource> {
  const { size } = await stat(file);
  let bytesRead = 0;
  async function* items(): AsyncGenerator<SourceItem> {
    // Opened when the import starts reading, so a parse error reaches the reader, never an unheard 'error' event.
    const input = createReadStream(file);
    input.on('data', (chunk) => (bytesRead += chunk.length));
    let missing: string[] = [];
    const parser = input.pipe(
      parse({
        bom: true,
        columns: (header: string[]) => {
          const keys = header.map(headerKey);
          missing = required.filter((key) => !keys.includes(key));
          return keys;
        },
        relax_column_count: true,
        skip_empty_lines: true,
      }),
    );
    input.on('error', (error) => parser.destroy(error));
    let row = 0;
    try {
      for await (const cells of parser as AsyncIterable<Record<string, string>>) {
        if (missing.length > 0) throw new Error(`${file}: the header lacks ${missing.join(', ')}`);
        row++;
        yield toItem({ row, cells });
      }
    } finally {
      input.destroy();
    }
  }
  return { items: items(), progress: () => ({ done: bytesRead, total: size }) };
}
