import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/cluster',
    include: ['test/**/*.test.ts'],
    // Its own project (vitest.failover.config.ts): it runs alone, after the rest.
    exclude: ['test/master-failover.test.ts'],
    // Starting the cluster (redis-cli --cluster create waits for the nodes to agree), bin/admin and
    // the processes: ~20 s on an idle machine, far more on a busy one.
    hookTimeout: 300_000,
    testTimeout: 60_000,
  },
});
