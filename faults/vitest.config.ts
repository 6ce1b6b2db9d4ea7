import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/faults',
    include: ['test/**/*.test.ts'],
    // The whole scenario (start, load, five faults, checks) runs in beforeAll.
    hookTimeout: 420_000,
    testTimeout: 60_000,
    // Alone, after every other project: its 3 s bounds must not measure the rest of the suite's CPU.
    sequence: { groupOrder: 1 },
    // One file at a time: the writer faults' private MariaDB must not share the machine with the scenario's load.
    fileParallelism: false,
  },
});
