import type { CategoryRepository } from '../repositories/category.repository.js';
import type { PlaceholderImageRepository } from '../repositories/placeholder-image.repository.js';
import { DEMO_ARTIST, DEMO_CATEGORIES, DEMO_SOURCE } from '../domain/demo-categories.policy.js';
import type { ImageImportService, ImportJob, ImportOutcome } from './image-import.service.js';

export interface DemoSeedServiceDeps {
  categories: Pick<CategoryRepository, 'count' | 'create'>;
  placeholders: Pick<PlaceholderImageRepository, 'render'>;
  imports: Pick<ImageImportService, 'importBytes'>;
}

export type DemoSeedResult =
  | { status: 'seeded'; categories: number; images: number }
  /** The database has categories already: seeding never mixes demo data into real data. */
  | { status: 'not-empty' }
  | { status: 'failed'; category: string; failures: ImportOutcome[] };

/**
 * Fills an empty images database with the demo categories and generated placeholder images (PNG,
 * JPEG and animated GIF), through the import rule.
 */
export class DemoSeedService {
  constructor(private readonly deps: DemoSeedServiceDeps) {}

  async seed(): Promise<DemoSeedResult> {
    if ((await this.deps.categories.count()) > 0) return { status: 'not-empty' };
    const credits = { artists: [DEMO_ARTIST], sources: [DEMO_SOURCE], reportUrl: null, shortUrl: null };
    let imported = 0;
    let seed = 0;
    for (const demo of DEMO_CATEGORIES) {
      await this.deps.categories.create(demo.db, demo.name, demo.sfw);
      const job: ImportJob = { category: demo.db, creditsFor: () => credits };
      const failures: ImportOutcome[] = [];
      for (let i = 0; i < demo.images; i++) {
        // Animated GIFs, so the demo answers `type=animated` (every category of three has one).
        const { bytes, ext } = await this.deps.placeholders.render(seed++, { animatedGifs: true });
        const outcome = await this.deps.imports.importBytes(job, `${demo.db}-${i}.${ext}`, bytes);
        if (outcome.status === 'failed') failures.push(outcome);
        if (outcome.status === 'imported') imported++;
      }
      if (failures.length > 0) return { status: 'failed', category: demo.db, failures };
    }
    return { status: 'seeded', categories: DEMO_CATEGORIES.length, images: imported };
  }
}
