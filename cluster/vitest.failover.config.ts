import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/cluster-failover',
    include: ['test/master-failover.test.ts'],
    hookTimeout: 300_000,
    testTimeout: 120_000,
    // Alone, after every other project (faults included): its 1 s bound on every answer must
    // measure the failover, not the CPU the rest of the suite takes.
    sequence: { groupOrder: 2 },
  },
});
