import { describe, expect, it } from 'vitest';
import { FakeCategoryRepository, FakeImageRepository, fakeImageBytes } from '../../test/fakes/repositories.fake.js';
import { DEMO_ARTIST, DEMO_CATEGORIES } from '../domain/demo-categories.policy.js';
import type { PlaceholderOptions } from '../repositories/placeholder-image.repository.js';
import { DemoSeedService } from './demo-seed.service.js';
import type { ImageImportService, ImportJob, ImportOutcome } from './image-import.service.js';

/** Records what would be imported; `failOn` makes the import of that seed's bytes fail. */
function fakeImports(
  failOn?: number,
): Pick<ImageImportService, 'importBytes'> & { jobs: Array<{ category: string; file: string; artists: string[] }> } {
  const jobs: Array<{ category: string; file: string; artists: string[] }> = [];
  return {
    jobs,
    importBytes(job: ImportJob, file: string, bytes: Buffer): Promise<ImportOutcome> {
      jobs.push({ category: job.category, file, artists: job.creditsFor(file).artists });
      const seed = (JSON.parse(bytes.toString()) as { seed: number }).seed;
      return Promise.resolve(
        seed === failOn
          ? { file, status: 'failed', reason: 'broken' }
          : { file, status: 'imported', id: String(seed), ext: 'png', size: 1 },
      );
    },
  };
}

const asked: PlaceholderOptions[] = [];
const placeholders = {
  render: (seed: number, options: PlaceholderOptions = {}) => {
    asked.push(options);
    return Promise.resolve({ bytes: fakeImageBytes({ format: 'png', seed }), format: 'png' as const, ext: 'png' });
  },
};

describe('DemoSeedService', () => {
  it('creates the demo categories and fills them with placeholders credited to the demo artist', async () => {
    const categories = new FakeCategoryRepository(new FakeImageRepository());
    const imports = fakeImports();
    const result = await new DemoSeedService({ categories, placeholders, imports }).seed();
    const images = DEMO_CATEGORIES.reduce((sum, c) => sum + c.images, 0);
    expect(result).toEqual({ status: 'seeded', categories: DEMO_CATEGORIES.length, images });
    expect(categories.rows.size).toBe(DEMO_CATEGORIES.length);
    expect(imports.jobs).toHaveLength(images);
    expect(imports.jobs[0]).toEqual({
      category: DEMO_CATEGORIES[0]!.db,
      file: `${DEMO_CATEGORIES[0]!.db}-0.png`,
      artists: [DEMO_ARTIST],
    });
    // Its GIFs are animated, so the demo has something for type=animated.
    expect(asked.slice(-images)).toEqual(Array(images).fill({ animatedGifs: true }));
  });

  it('leaves a database that has categories alone', async () => {
    const categories = new FakeCategoryRepository(new FakeImageRepository());
    await categories.create('furry.hug', 'Furry > Hug');
    const imports = fakeImports();
    expect(await new DemoSeedService({ categories, placeholders, imports }).seed()).toEqual({ status: 'not-empty' });
    expect(imports.jobs).toEqual([]);
  });

  it('stops at the first category whose images could not be imported', async () => {
    const categories = new FakeCategoryRepository(new FakeImageRepository());
    const result = await new DemoSeedService({ categories, placeholders, imports: fakeImports(1) }).seed();
    expect(result).toEqual({
      status: 'failed',
      category: DEMO_CATEGORIES[0]!.db,
      failures: [{ file: `${DEMO_CATEGORIES[0]!.db}-1.png`, status: 'failed', reason: 'broken' }],
    });
  });
});
