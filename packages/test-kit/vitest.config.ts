import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/test-kit',
    include: ['src/**/*.spec.ts'],
    testTimeout: 30_000,
  },
});
