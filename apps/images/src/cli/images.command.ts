import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import type { Redis } from 'ioredis';
import { imagesDatabase } from '../db/images.database.js';
import { imageFilePath } from '../domain/media-path.js';
import { CategoryRepository } from '../repositories/category.repository.js';
import { ImageRepository } from '../repositories/image.repository.js';
import { RecordCache } from '../repositories/record-cache.js';
import { SizeIndex } from '../repositories/size-index.js';
import { ImagesCommandFailure, type ImagesCliContext } from './cli-context.js';
import { DEMO_ARTIST, DEMO_CATEGORIES, DEMO_SOURCE } from './demo-categories.js';
import { expandPaths, importFiles, parseSidecar, sweepStaleTemps, type Candidate, type ImportDeps, type ImportOutcome, type Sidecar } from './import-images.js';
import { categoryKey, collect, imageId, sourceUrl, text } from './options.js';
import { placeholderImage } from './placeholder-image.js';

/**
 * Every images command writes Redis (size index, record cache) as well as MySQL and the media
 * directory: check Redis answers before touching anything, so an outage stops the command with
 * one clear line instead of leaving rows that the random index does not know.
 */
async function requireRedis(redis: Redis): Promise<void> {
  // bin/admin's client has no 'error' listener, so ioredis would print every failed connection
  // attempt with a stack trace; the failure is reported below instead.
  if (redis.listenerCount('error') === 0) redis.on('error', () => undefined);
  try {
    await redis.ping();
  } catch (error) {
    throw new ImagesCommandFailure(`Redis (REDIS_URL) is unreachable: ${(error as Error).message}`);
  }
}

async function importDeps(context: ImagesCliContext): Promise<ImportDeps> {
  await requireRedis(context.redis);
  const dataSource = await context.dataSource(imagesDatabase);
  return {
    categories: new CategoryRepository(dataSource),
    images: new ImageRepository(dataSource),
    sizeIndex: new SizeIndex(context.redis, context.config.redis.prefix),
    records: new RecordCache(context.redis, context.config.redis.prefix),
    mediaDir: context.config.mediaDir,
  };
}

function describe(outcome: ImportOutcome): string {
  switch (outcome.status) {
    case 'imported':
      return `imported ${outcome.file} → ${outcome.id}.${outcome.ext} (${outcome.size} bytes)`;
    case 'duplicate':
      return `skipped ${outcome.file}: duplicate of ${outcome.id} (category ${outcome.category})`;
    case 'failed':
      return `failed ${outcome.file}: ${outcome.reason}`;
  }
}

const SIDECAR_MAX_BYTES = 64 * 1024 * 1024;

async function readSidecar(file: string): Promise<Sidecar> {
  try {
    // A FIFO or a device (/dev/stdin, /dev/zero) would block or never end.
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a regular file.');
    if (info.size > SIDECAR_MAX_BYTES) throw new Error(`larger than ${SIDECAR_MAX_BYTES / 1024 / 1024} MiB.`);
    return parseSidecar(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    throw new ImagesCommandFailure(`Cannot use the sidecar ${file}: ${(error as Error).message}`);
  }
}

/** `bin/admin images import|remove|reindex|seed-demo`. */
export function registerImageCommands(program: Command, context: () => ImagesCliContext): void {
  const images = program.command('images').description('Import and remove images (files under MEDIA_DIR/images, rows in <DB_PREFIX>images).');

  images
    .command('import')
    .description('Import image files or folders into a category; duplicates are skipped, non-images reported (exit 1 if any failed).')
    .argument('<paths...>', 'files or folders (searched recursively)')
    .requiredOption('--category <db>', 'category key', categoryKey)
    .option('--artist <name>', 'artist credited (repeatable)', collect(text(200)))
    .option('--source <url>', 'source URL (repeatable)', collect(sourceUrl))
    .option('--meta <sidecar.json>', 'JSON object: file name → {artists, sources, reportURL?, shortURL?}; overrides the flags per file')
    .action(async (paths: string[], options: { category: string; artist?: string[]; source?: string[]; meta?: string }) => {
      const ctx = context();
      const sidecar = options.meta === undefined ? undefined : await readSidecar(options.meta);
      const deps = await importDeps(ctx);
      const swept = await sweepStaleTemps(deps.mediaDir);
      if (swept > 0) process.stdout.write(`Removed ${swept} temporary file(s) left by an interrupted import.\n`);
      const category = await deps.categories.find(options.category);
      if (!category) throw new ImagesCommandFailure(`No category ${options.category}; create it with: category add ${options.category} --name "<Group > Name>"`);
      let candidates: Candidate[];
      try {
        candidates = await expandPaths(paths, options.meta === undefined ? [] : [options.meta]);
      } catch (error) {
        throw new ImagesCommandFailure(`Cannot read the input: ${(error as Error).message}`);
      }

      const tty = process.stdout.isTTY === true;
      const bar = tty ? new cliProgress.SingleBar({ format: 'importing [{bar}] {value}/{total} {file}', hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
      bar?.start(candidates.length, 0, { file: '' });
      const problems: string[] = [];
      const outcomes = await importFiles(deps, { category: options.category, artists: options.artist ?? [], sources: options.source ?? [], sidecar }, candidates, (outcome) => {
        if (bar) {
          bar.increment({ file: path.basename(outcome.file) });
          if (outcome.status !== 'imported') problems.push(describe(outcome));
        } else {
          process.stdout.write(`${describe(outcome)}\n`);
        }
      });
      bar?.stop();
      for (const line of problems) process.stdout.write(`${line}\n`);

      const count = (status: ImportOutcome['status']) => outcomes.filter((o) => o.status === status).length;
      const failed = count('failed');
      process.stdout.write(`Imported ${count('imported')}, skipped ${count('duplicate')} duplicate(s), ${failed} failed, into ${options.category}.\n`);
      if (failed > 0) throw new ImagesCommandFailure(`${failed} file(s) could not be imported.`);
    });

  images
    .command('remove')
    .description('Remove an image: its row, its entry in the random index and its file.')
    .argument('<id>', 'image id (MD5)', imageId)
    .action(async (id: string) => {
      const ctx = context();
      const deps = await importDeps(ctx);
      const row = await deps.images.findById(id);
      if (!row) throw new ImagesCommandFailure(`No image ${id}.`);
      // Out of the random index first, so no request picks an image whose row is gone.
      await deps.sizeIndex.remove(row.category, id);
      await deps.records.remove(id);
      await deps.images.remove(id);
      await unlink(imageFilePath(deps.mediaDir, id, row.ext)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      process.stdout.write(`Removed image ${id} from ${row.category}.\n`);
    });

  images
    .command('reindex')
    .description('Rebuild the Redis size index of one or every category from MySQL (after restoring Redis from an old snapshot, say).')
    .argument('[db]', 'category key (default: every category)', categoryKey)
    .action(async (db: string | undefined) => {
      const ctx = context();
      const deps = await importDeps(ctx);
      const targets = db === undefined ? (await deps.categories.listWithContent()).map((c) => c.db) : [db];
      if (db !== undefined && !(await deps.categories.find(db))) throw new ImagesCommandFailure(`No category ${db}.`);
      for (const target of targets) {
        const count = await deps.sizeIndex.rebuild(target, deps.images.idsAndSizes(target));
        process.stdout.write(`Reindexed ${target}: ${count} image(s).\n`);
      }
    });

  images
    .command('seed-demo')
    .description('On an empty images database: create the demo categories and fill them with generated placeholder images.')
    .action(async () => {
      const ctx = context();
      const deps = await importDeps(ctx);
      if ((await deps.categories.count()) > 0) {
        process.stdout.write('The images database already has categories; nothing seeded.\n');
        return;
      }
      const workDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-demo-'));
      let imported = 0;
      try {
        let seed = 0;
        for (const demo of DEMO_CATEGORIES) {
          await deps.categories.create(demo.db, demo.name);
          const files: Candidate[] = [];
          for (let i = 0; i < demo.images; i++) {
            const { bytes, ext } = await placeholderImage(seed++);
            const file = path.join(workDir, `${demo.db}-${i}.${ext}`);
            await writeFile(file, bytes);
            files.push({ file });
          }
          const outcomes = await importFiles(deps, { category: demo.db, artists: [DEMO_ARTIST], sources: [DEMO_SOURCE] }, files, () => undefined);
          const failed = outcomes.filter((o) => o.status === 'failed');
          if (failed.length > 0) throw new ImagesCommandFailure(`Seeding ${demo.db} failed: ${failed.map(describe).join('; ')}`);
          imported += outcomes.filter((o) => o.status === 'imported').length;
        }
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
      process.stdout.write(`Seeded ${DEMO_CATEGORIES.length} demo categories with ${imported} placeholder images.\n`);
    });
}
