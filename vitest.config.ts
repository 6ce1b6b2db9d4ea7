import { defineConfig } from 'vitest/config';

/** One run over every package; each project keeps its own vitest.config.ts. */
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'tools/*/vitest.config.ts', 'infra/vitest.config.ts', 'e2e/vitest.config.ts'],
    maxWorkers: 3,
  },
});
