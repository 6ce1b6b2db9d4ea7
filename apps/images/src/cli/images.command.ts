import type { Command } from 'commander';
import type { ImportCandidate } from '../services/image-import.service.js';
import { collect, CommandFailure, type CliContext } from '@pawlink/service-kit/cli';
import { openImagesContainer } from './cli-context.js';
import { expandPaths } from './import-paths.js';
import { describeOutcome, importProgress, summarize } from './import-report.js';
import { MAX_ARTISTS, MAX_SOURCES } from '../domain/image-credits.rules.js';
import { artistName, categoryKey, imageId, sourceUrl } from './options.js';
import { creditsFrom, readSidecar } from './sidecar.js';
import { registerShortLinkCommand } from './short-links.command.js';
import { registerThumbhashCommand } from './thumbhash.command.js';

/** `bin/admin images import|remove|reindex|seed-demo|shortlinks|thumbhash`. */
export function registerImageCommands(program: Command, context: () => CliContext): void {
  const images = program
    .command('images')
    .description('Import and remove images (files under MEDIA_DIR/images, rows in <DB_PREFIX>images).');

  images
    .command('import')
    .description(
      'Import image files or folders into a category; duplicates are skipped, non-images reported (exit 1 if any failed).',
    )
    .argument('<paths...>', 'files or folders (searched recursively)')
    .requiredOption('--category <db>', 'category key', categoryKey)
    .option(
      '--artist <name>',
      `artist credited (repeatable, at most ${MAX_ARTISTS}; plain text, at most 50 characters)`,
      collect(artistName),
    )
    .option(
      '--source <url>',
      `source URL (repeatable, at most ${MAX_SOURCES}; http(s), stored normalised)`,
      collect(sourceUrl),
    )
    .option(
      '--meta <sidecar.json>',
      'JSON object: file name → {artists, sources, reportURL?, shortURL?}; overrides the flags per file, and a file whose entry breaks the rules of the flags is refused with the reason',
    )
    .action(
      async (paths: string[], options: { category: string; artist?: string[]; source?: string[]; meta?: string }) => {
        if ((options.artist?.length ?? 0) > MAX_ARTISTS)
          throw new CommandFailure(`At most ${MAX_ARTISTS} --artist flags.`, 2);
        if ((options.source?.length ?? 0) > MAX_SOURCES)
          throw new CommandFailure(`At most ${MAX_SOURCES} --source flags.`, 2);
        const sidecar = options.meta === undefined ? undefined : await readSidecar(options.meta);
        const { imports } = await openImagesContainer(context());
        const swept = await imports.removeInterruptedWrites();
        if (swept > 0) process.stdout.write(`Removed ${swept} temporary file(s) left by an interrupted import.\n`);
        if (!(await imports.categoryExists(options.category)))
          throw new CommandFailure(
            `No category ${options.category}; create it with: category add ${options.category} --name "<Group > Name>"`,
          );
        let candidates: ImportCandidate[];
        try {
          candidates = await expandPaths(paths, options.meta === undefined ? [] : [options.meta]);
        } catch (error) {
          throw new CommandFailure(`Cannot read the input: ${(error as Error).message}`);
        }

        const progress = importProgress(candidates.length);
        const job = {
          category: options.category,
          creditsFor: creditsFrom({ artists: options.artist ?? [], sources: options.source ?? [] }, sidecar),
        };
        const outcomes = await imports.importAll(job, candidates, progress.onOutcome);
        progress.finish();
        const { line, failed } = summarize(outcomes, options.category);
        process.stdout.write(`${line}\n`);
        if (failed > 0) throw new CommandFailure(`${failed} file(s) could not be imported.`);
      },
    );

  images
    .command('remove')
    .description('Remove an image: its row, its entry in the random index and its file.')
    .argument('<id>', 'image id (MD5)', imageId)
    .action(async (id: string) => {
      const removed = await (await openImagesContainer(context())).imageAdmin.remove(id);
      if (!removed) throw new CommandFailure(`No image ${id}.`);
      process.stdout.write(`Removed image ${id} from ${removed.category}.\n`);
    });

  images
    .command('reindex')
    .description(
      'Rebuild the Redis size index of one or every category from MySQL (after restoring Redis from an old snapshot, say).',
    )
    .argument('[db]', 'category key (default: every category)', categoryKey)
    .action(async (db: string | undefined) => {
      const { imageAdmin } = await openImagesContainer(context());
      const known = await imageAdmin.reindex(
        db,
        (target, count) => void process.stdout.write(`Reindexed ${target}: ${count} image(s).\n`),
      );
      if (!known) throw new CommandFailure(`No category ${db}.`);
    });

  registerThumbhashCommand(images, context);

  images
    .command('seed-demo')
    .description(
      'On an empty images database: create the demo categories and fill them with generated placeholder images.',
    )
    .action(async () => {
      const result = await (await openImagesContainer(context())).demoSeed.seed();
      switch (result.status) {
        case 'not-empty':
          process.stdout.write('The images database already has categories; nothing seeded.\n');
          return;
        case 'failed':
          throw new CommandFailure(
            `Seeding ${result.category} failed: ${result.failures.map(describeOutcome).join('; ')}`,
          );
        case 'seeded':
          process.stdout.write(
            `Seeded ${result.categories} demo categories with ${result.images} placeholder images.\n`,
          );
      }
    });

  registerShortLinkCommand(images, context);
}
