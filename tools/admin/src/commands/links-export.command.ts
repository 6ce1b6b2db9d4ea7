import { CommandFailure, oneOf, positiveInt } from '@pawlink/service-kit/cli';
import { csvHeader, csvLine, EXPORT_FORMATS, ndjsonLine, type ExportFormat } from '@pawlink/shortener';
import type { Command } from 'commander';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { AdminContext } from '../admin-context.js';

interface ExportOptions {
  owner: number;
  format: ExportFormat;
  include?: 'days';
  out?: string;
}

/** The reader of the output went away (`| head`): nothing more is worth writing. */
const isClosedOutput = (error: unknown): boolean =>
  ['EPIPE', 'ERR_STREAM_DESTROYED'].includes((error as NodeJS.ErrnoException | null)?.code ?? '');

/**
 * Writes to `out` with backpressure (a slow pipe holds the reading back) and watches its errors:
 * process.stdout stays open after EPIPE, so the error event is what says its reader left.
 */
class ExportOutput {
  private failure: Error | undefined;
  private gone = false;
  private readonly watch = (error: unknown): void => {
    if (isClosedOutput(error)) this.gone = true;
    else this.failure ??= error instanceof Error ? error : new Error(String(error));
  };

  constructor(private readonly out: Writable) {
    out.on('error', this.watch);
  }

  /** False once nobody reads the output any more; any other failure of it (a full disk) is thrown. */
  async write(chunk: string): Promise<boolean> {
    if (this.open() && !this.out.write(chunk)) {
      const waiting = new AbortController();
      try {
        await Promise.race([
          once(this.out, 'drain', { signal: waiting.signal }),
          once(this.out, 'close', { signal: waiting.signal }),
        ]);
      } catch (error) {
        this.watch(error);
      } finally {
        waiting.abort();
      }
    }
    return this.open();
  }

  /** Stops watching; throws what failed the output meanwhile. */
  finish(): void {
    this.out.off('error', this.watch);
    if (this.failure !== undefined) throw this.failure;
  }

  private open(): boolean {
    if (this.failure !== undefined) throw this.failure;
    return !this.gone && !this.out.destroyed;
  }
}

/**
 * Writes every link of the key to `out`; how many, and whether `out` was still read at the end.
 * A failure (the database gone part way) is a CommandFailure that says how far it got and `lost`.
 */
async function writeLinks(
  context: AdminContext,
  options: ExportOptions,
  out: Writable,
  lost: string,
): Promise<{ links: number; open: boolean }> {
  const withDays = options.include === 'days';
  const render = (page: Parameters<typeof csvLine>[0][]): string =>
    page.map((r) => (options.format === 'csv' ? csvLine(r, withDays) : ndjsonLine(r))).join('');
  let links = 0;
  const output = new ExportOutput(out);
  try {
    let open = options.format === 'csv' ? await output.write(csvHeader(withDays)) : true;
    const pages = (await context.linkExport()).pages(options.owner, withDays);
    // A page is read only when the previous one was taken: a reader that left stops the reading.
    while (open) {
      const next = await pages.next();
      if (next.done === true) break;
      open = await output.write(render(next.value));
      links += next.value.length;
    }
    await pages.return(undefined);
    output.finish();
    return { links, open };
  } catch (error) {
    throw new CommandFailure(
      `The export stopped after ${links} links: ${error instanceof Error ? error.message : String(error)}; ${lost}.`,
    );
  }
}

/**
 * `--out`: written under a temporary name beside the file and renamed over it only once every link
 * is in, so a failed export leaves no file that looks complete (and what was there stays). Not a
 * regular file (`/dev/stdout`, a named pipe): written directly, as stdout is.
 */
async function exportToFile(context: AdminContext, options: ExportOptions & { out: string }): Promise<number> {
  const target = await realpath(options.out).catch(() => path.resolve(options.out));
  const existing = await stat(target).catch(() => undefined);
  if (existing !== undefined && !existing.isFile()) {
    const out = createWriteStream(target, { flags: 'a' });
    const { links } = await writeLinks(context, options, out, `what ${options.out} received is incomplete`);
    out.end();
    await once(out, 'close');
    return links;
  }
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.partial`);
  const out = createWriteStream(partial, { flags: 'wx' });
  await once(out, 'open');
  try {
    const { links } = await writeLinks(context, options, out, `${options.out} was not written`);
    out.end();
    await once(out, 'close');
    await rename(partial, target);
    return links;
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
}

async function exportLinks(context: AdminContext, options: ExportOptions): Promise<void> {
  if ((await (await context.keyRepository()).findById(options.owner)) === null)
    throw new CommandFailure(`No API key with id ${options.owner}.`);
  if (options.out === undefined) {
    // A reader that stops early (`| head -1`) ends the export quietly, with status 0.
    await writeLinks(context, options, process.stdout, 'what stdout received is incomplete');
    return;
  }
  const links = await exportToFile(context, { ...options, out: options.out });
  process.stdout.write(`Exported ${links} links to ${options.out}.\n`);
}

/** `links export`: what GET /links/export streams, read from the database by the operator. */
export function registerLinksExportCommand(links: Command, context: () => AdminContext): void {
  links
    .command('export')
    .description('Export every link of a key, as GET /links/export does (CSV: what `links import --from csv` reads).')
    .requiredOption('--owner <key id>', 'the API key whose links are exported', positiveInt)
    .option('--format <format>', `one of ${EXPORT_FORMATS.join(', ')}`, oneOf(EXPORT_FORMATS), 'csv')
    .option('--include <what>', "days: each link's visits per UTC day too", oneOf(['days'] as const))
    .option(
      '--out <file>',
      'write there, under a temporary name renamed only when complete (default: stdout; a failure exits 1)',
    )
    .action(async (options: ExportOptions) => exportLinks(context(), options));
}
