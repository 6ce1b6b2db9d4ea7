import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/galera',
    include: ['test/**/*.test.ts'],
    // Alone, after every other project (the faults suite is group 1, the Redis failover 2): its
    // 1 s bounds measure the cluster's failover, not the rest of the suite's load.
    sequence: { groupOrder: 3 },
    // Three nodes joined by SST, the services, bin/admin: ~30 s on an idle machine, more on a busy one.
    hookTimeout: 300_000,
    testTimeout: 180_000,
    fileParallelism: false,
  },
});
