import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/e2e',
    include: ['test/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
