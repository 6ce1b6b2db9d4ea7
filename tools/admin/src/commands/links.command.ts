import { CommandFailure, oneOf, positiveInt } from '@pawlink/service-kit/cli';
import { randomCode } from '@pawlink/shortener';
import type { Command } from 'commander';
import path from 'node:path';
import type { AdminContext } from '../admin-context.js';
import { SOURCE_NAMES, type LinkSource, type SourceName } from '../link-sources/imported-link.js';
import { openLinkSource } from '../link-sources/open-link-source.js';
import { ImportReportFile } from '../repositories/import-report.repository.js';
import { showImportProgress } from '../services/import-progress.js';
import { registerLinksExportCommand } from './links-export.command.js';
import { CONFLICT_RULES, type ConflictRule } from '../services/link-import.rules.js';
import { ImportConflict, LinkImportService } from '../services/link-import.service.js';

interface ImportOptions {
  from: SourceName;
  owner: number;
  apiKey?: string;
  onConflict: ConflictRule;
  dryRun?: boolean;
  report?: string;
}

const stamp = (date: Date): string =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** One line of the summary, as printed at the end. */
function summaryLine(report: ImportReportFile, dryRun: boolean): string {
  const s = report.summary;
  const verb = dryRun ? 'Would import' : 'Imported';
  return `${verb} ${s.imported} (${s.renamed} under a new code), skipped ${s.skipped}, refused ${s.refused}. Report: ${report.file}`;
}

async function importLinks(context: AdminContext, location: string, options: ImportOptions): Promise<void> {
  if ((await (await context.keyRepository()).findById(options.owner)) === null)
    throw new CommandFailure(`No API key with id ${options.owner}.`);
  let source: LinkSource;
  try {
    source = await openLinkSource(options.from, location, options.apiKey);
  } catch (error) {
    throw new CommandFailure(`Cannot open the source: ${(error as Error).message}`, 2);
  }
  const startedAt = new Date();
  const file = path.resolve(options.report ?? `links-import-${options.from}-${stamp(startedAt)}.jsonl`);
  const service = new LinkImportService({
    repository: await context.linkImports(),
    clock: () => new Date(),
    randomCode,
  });
  const privateTargetPrefixes = context.privateTargetPrefixes();
  const report = new ImportReportFile(file);
  const stopProgress = showImportProgress(source, report.summary);
  let stopped: string | null = null;
  try {
    await service.run(
      source.items,
      {
        owner: options.owner,
        source: options.from,
        onConflict: options.onConflict,
        dryRun: options.dryRun === true,
        privateTargetPrefixes,
      },
      (outcome) => report.add(outcome),
    );
  } catch (error) {
    stopped = (error as Error).message;
    if (!(error instanceof ImportConflict)) stopped = `the source failed: ${stopped}`;
  } finally {
    stopProgress();
    report.finish({
      source: options.from,
      owner: options.owner,
      dryRun: options.dryRun === true,
      onConflict: options.onConflict,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      stopped,
    });
  }
  process.stdout.write(`${summaryLine(report, options.dryRun === true)}\n`);
  if (stopped !== null) throw new CommandFailure(`Stopped: ${stopped}. A re-run skips what is in.`);
}

export function registerLinkCommands(program: Command, context: () => AdminContext): void {
  const links = program.command('links').description('Move short links in and out of the shortener.');

  links
    .command('import')
    .description(
      'Import links from another shortener: keeps codes that are free and valid here, creation dates and visit totals; ' +
        'refuses targets the API refuses; a re-run skips what is in. Writes a report (JSON lines, summary last).',
    )
    .argument(
      '<location>',
      'a CSV file (csv, bitly-csv, shlink), a base URL (shlink, kutt) or mysql://…/db?prefix=yourls_ (yourls)',
    )
    .requiredOption('--from <source>', `one of ${SOURCE_NAMES.join(', ')}`, oneOf(SOURCE_NAMES))
    .requiredOption('--owner <key id>', 'the API key that owns the imported links', positiveInt)
    .option('--api-key <key>', "the source's API key (shlink, kutt)")
    .option(
      '--on-conflict <rule>',
      `a code taken or not valid here: ${CONFLICT_RULES.join(', ')}`,
      oneOf(CONFLICT_RULES),
      'skip',
    )
    .option('--dry-run', 'check everything, write nothing')
    .option('--report <file>', 'where the report goes (default links-import-<source>-<time>.jsonl here)')
    .action(async (location: string, options: ImportOptions) => importLinks(context(), location, options));

  registerLinksExportCommand(links, context);
}
