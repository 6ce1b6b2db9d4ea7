import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiKeyRepository, authDatabase, createAccessGuards } from '@pawlink/auth';
import { createTestKey } from '@pawlink/auth/testing';
import type { ApiKeyFlag } from '@pawlink/contracts';
import { createDataSource, createLogger, createRedis, migrateDatabase, ReadOnlySwitch } from '@pawlink/service-kit';
import { createTestContext, serveForTest, type TestContext } from '@pawlink/test-kit';
import { Command, CommanderError } from 'commander';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { createApp } from '../src/app.js';
import { registerCategoryCommands } from '../src/cli/category.command.js';
import type { CliContext } from '@pawlink/service-kit/cli';
import { registerImageCommands } from '../src/cli/images.command.js';
import { loadImagesConfig, type ImagesConfig } from '../src/config.js';
import { createImagesContainer, type ImagesContainer, type ImagesRepositories } from '../src/container.js';
import { imagesDatabase } from '../src/db/images.database.js';
import { PlaceholderImageRepository, type PlaceholderImage } from '../src/repositories/placeholder-image.repository.js';
import type { ImageCredits, ImportJob } from '../src/services/image-import.service.js';
import { imagesOpenApi } from '../src/openapi.js';

const placeholders = new PlaceholderImageRepository();

/** A generated image whose look, size and format follow from `seed` (distinct bytes per seed). */
export const placeholderImage = (seed: number): Promise<PlaceholderImage> => placeholders.render(seed);

/** An import into `category` crediting every file alike. */
export const importJob = (category: string, credits: Partial<ImageCredits> = {}): ImportJob => {
  const all: ImageCredits = { artists: [], sources: [], reportUrl: null, shortUrl: null, ...credits };
  return { category, creditsFor: () => all };
};

export interface Harness {
  ctx: TestContext;
  config: ImagesConfig;
  url: string;
  redis: RedisClient;
  images: DataSource;
  auth: DataSource;
  /** The services and repositories, wired as main.ts and bin/admin wire them. */
  container: ImagesContainer;
  repositories: ImagesRepositories;
  readOnly: ReadOnlySwitch;
  /** Creates a category (enabled). */
  addCategory(db: string, name?: string): Promise<void>;
  /** Imports a generated image into `db`; returns its record id and bytes. */
  addImage(
    db: string,
    seed: number,
    extra?: { artists?: string[]; sources?: string[] },
  ): Promise<{ id: string; size: number; ext: string; bytes: Buffer }>;
  key(flags: ApiKeyFlag[], bulkLimit?: number): Promise<string>;
  /** Runs `bin/admin <args>` with the images commands in process; exit codes as bin/admin maps them. */
  cli(args: string[], context?: Partial<CliContext>): Promise<{ code: number; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

/** `overrides` may depend on the test context (e.g. an nginx serving its MEDIA_DIR). */
export async function startHarness(
  label: string,
  overrides: Record<string, string> | ((ctx: TestContext) => Promise<Record<string, string>>) = {},
): Promise<Harness> {
  const ctx = await createTestContext(label);
  const extra = typeof overrides === 'function' ? await overrides(ctx) : overrides;
  const config = loadImagesConfig({
    ...ctx.env,
    IMAGES_CATEGORY_CACHE_MS: '0',
    IMAGES_MEDIA_URL: 'http://media.test/images',
    ...extra,
  });
  await migrateDatabase(config.database, authDatabase);
  await migrateDatabase(config.database, imagesDatabase);
  const images = createDataSource(config.database, { ...imagesDatabase, poolSize: 4 });
  const auth = createDataSource(config.database, { ...authDatabase, poolSize: 2 });
  await Promise.all([images.initialize(), auth.initialize()]);
  const redis = createRedis(config.redis, { name: 'images-test' });
  const logger = createLogger('images', 'error', { silent: true });
  const readOnly = new ReadOnlySwitch(redis, config.redis.prefix, 'images', false, logger, 50);
  await readOnly.start();
  const container = createImagesContainer({ config, logger, redis, dataSource: images });
  const apiKeys = new ApiKeyRepository(auth);
  const guards = createAccessGuards({ service: 'images', apiKeys, redis, redisPrefix: config.redis.prefix, logger });
  const server = await serveForTest(createApp({ config, logger, services: container, guards, readOnly }), {
    contract: imagesOpenApi,
  });
  const cliContext: CliContext = {
    config,
    redis,
    dataSource: () => Promise.resolve(images),
    queueRedis: () => {
      throw new Error('the images commands use no queue');
    },
  };

  return {
    ctx,
    config,
    url: server.url,
    redis,
    images,
    auth,
    container,
    repositories: container.repositories,
    readOnly,
    async addCategory(db, name) {
      await container.categoryAdmin.add(
        db,
        name ??
          db
            .split('.')
            .map((p) => p[0]!.toUpperCase() + p.slice(1))
            .join(' > '),
      );
    },
    async addImage(db, seed, extra = {}) {
      const { bytes, ext } = await placeholderImage(seed);
      const file = path.join(ctx.mediaDir, `source-${seed}.${ext}`);
      await writeFile(file, bytes);
      const job = importJob(db, {
        artists: extra.artists ?? ['Test Artist'],
        sources: extra.sources ?? ['https://example.com/source'],
      });
      const outcome = await container.imports.importFile(job, file);
      if (outcome.status !== 'imported') throw new Error(`seed ${seed} not imported: ${JSON.stringify(outcome)}`);
      return { id: outcome.id, size: outcome.size, ext: outcome.ext, bytes };
    },
    async key(flags, bulkLimit) {
      return createTestKey(apiKeys, flags, bulkLimit === undefined ? {} : { bulkLimit });
    },
    async cli(args, context) {
      const commandContext = { ...cliContext, ...context };
      let stdout = '';
      let stderr = '';
      const program = new Command('admin').exitOverride();
      program.configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
      registerCategoryCommands(program, () => commandContext);
      registerImageCommands(program, () => commandContext);
      const strict = (command: Command): void => {
        command.exitOverride().allowExcessArguments(false).allowUnknownOption(false);
        command.configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
        command.commands.forEach(strict);
      };
      strict(program);
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = (chunk: string | Uint8Array) => {
        stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
        return true;
      };
      try {
        await program.parseAsync(args, { from: 'user' });
        return { code: 0, stdout, stderr };
      } catch (error) {
        if (error instanceof CommanderError) return { code: error.exitCode === 0 ? 0 : 2, stdout, stderr };
        stderr += `error: ${(error as Error).message}\n`;
        return { code: (error as { exitCode?: number }).exitCode ?? 1, stdout, stderr };
      } finally {
        process.stdout.write = write;
      }
    },
    async close() {
      readOnly.stop();
      await server.close();
      await Promise.all([images.destroy(), auth.destroy()]);
      await redis.quit();
      await ctx.cleanup();
    },
  };
}
