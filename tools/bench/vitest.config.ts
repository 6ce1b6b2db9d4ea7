import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@pawlink/bench',
    include: ['src/**/*.spec.ts'],
  },
});
