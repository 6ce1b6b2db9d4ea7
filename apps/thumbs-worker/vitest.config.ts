import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/thumbs-worker',
    include: ['src/**/*.spec.ts', 'test/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
