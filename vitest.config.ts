import { defineConfig } from 'vitest/config';

/**
 * The Galera suite (galera/README.md) runs only when asked: its pause and kill scenarios still
 * miss the 1 s bound or the import's exit in most runs on a 2-core machine (issue 35, open).
 */
const galera = process.env.PAWLINK_TEST_GALERA === '1';

/** One run over every package; each project keeps its own vitest.config.ts. */
export default defineConfig({
  test: {
    projects: [
      '{packages,apps,tools}/*/vitest.config.ts',
      `{infra,e2e,faults,cluster${galera ? ',galera' : ''}}/vitest.config.ts`,
      'cluster/vitest.failover.config.ts',
    ],
    maxWorkers: 3,
  },
});
