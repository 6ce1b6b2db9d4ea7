import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/layout',
    include: ['test/**/*.test.ts'],
  },
});
