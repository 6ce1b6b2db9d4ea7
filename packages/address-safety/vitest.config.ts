import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/address-safety',
    include: ['src/**/*.spec.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
