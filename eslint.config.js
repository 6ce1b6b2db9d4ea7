import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'data/**',
      '**/*.mjs',
      '**/*.d.mts',
      '**/vitest.config.ts',
      'vitest.config.ts',
      'eslint.config.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Services hold the rules and no I/O (docs/adr/0008): side effects go through repositories.
    files: ['apps/*/src/services/**/*.ts', 'packages/*/src/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'express',
            'express-validator',
            'typeorm',
            'ioredis',
            'bullmq',
            'mysql2',
            'mysql2/promise',
            'sharp',
            'gif-encoder-2',
            'fs',
            'fs/promises',
            'node:fs',
            'node:fs/promises',
            'child_process',
            'node:child_process',
            'http',
            'node:http',
          ].map((name) => ({
            name,
            message: 'Services hold rules, not I/O: put this behind a repository (docs/adr/0008).',
          })),
        },
      ],
    },
  },
  {
    files: ['**/test/**/*.ts', '**/*.spec.ts', '**/*.test.ts', 'e2e/**/*.ts', 'faults/**/*.ts', '**/bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
