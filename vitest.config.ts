import { defineConfig } from 'vitest/config';

/** One run over every package; each project keeps its own vitest.config.ts. */
export default defineConfig({
  test: {
    projects: [
      '{packages,apps,tools}/*/vitest.config.ts',
      '{infra,e2e,faults,cluster,galera}/vitest.config.ts',
      'cluster/vitest.failover.config.ts',
    ],
    maxWorkers: 3,
  },
});
