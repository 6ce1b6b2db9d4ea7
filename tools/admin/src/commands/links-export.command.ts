import { CommandFailure, oneOf, positiveInt } from '@pawlink/service-kit/cli';
import { csvHeader, csvLine, EXPORT_FORMATS, ndjsonLine, type ExportFormat } from '@pawlink/shortener';
import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { AdminContext } from '../admin-context.js';

interface ExportOptions {
  owner: number;
  format: ExportFormat;
  include?: 'days';
  out?: string;
}

/** Writes `chunk`, waiting while `out` is full (a slow pipe holds the reading back). */
async function write(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

async function exportLinks(context: AdminContext, options: ExportOptions): Promise<void> {
  if ((await (await context.keyRepository()).findById(options.owner)) === null)
    throw new CommandFailure(`No API key with id ${options.owner}.`);
  const withDays = options.include === 'days';
  const out: Writable = options.out === undefined ? process.stdout : createWriteStream(options.out);
  let links = 0;
  if (options.format === 'csv') await write(out, csvHeader(withDays));
  for await (const page of (await context.linkExport()).pages(options.owner, withDays)) {
    await write(out, page.map((r) => (options.format === 'csv' ? csvLine(r, withDays) : ndjsonLine(r))).join(''));
    links += page.length;
  }
  if (options.out !== undefined) {
    out.end();
    await once(out, 'finish');
    process.stdout.write(`Exported ${links} links to ${options.out}.\n`);
  }
}

/** `links export`: what GET /links/export streams, read from the database by the operator. */
export function registerLinksExportCommand(links: Command, context: () => AdminContext): void {
  links
    .command('export')
    .description('Export every link of a key, as GET /links/export does (CSV: what `links import --from csv` reads).')
    .requiredOption('--owner <key id>', 'the API key whose links are exported', positiveInt)
    .option('--format <format>', `one of ${EXPORT_FORMATS.join(', ')}`, oneOf(EXPORT_FORMATS), 'csv')
    .option('--include <what>', "days: each link's visits per UTC day too", oneOf(['days'] as const))
    .option('--out <file>', 'write there (default: stdout)')
    .action(async (options: ExportOptions) => exportLinks(context(), options));
}
