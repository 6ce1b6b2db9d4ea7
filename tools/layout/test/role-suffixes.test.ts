import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, layeredPackages, typescriptFiles } from './source-tree.js';

/**
 * A file's name says its role, and the role matches its folder (docs/adr/0008): a newcomer finds
 * an endpoint's files by one word in each layer folder, and a helper never hides in a layer that
 * is not its own.
 */
const ROLE_SUFFIXES: Record<string, readonly string[]> = {
  routes: ['.routes.ts'],
  validation: ['.validation.ts'],
  handlers: ['.handler.ts'],
  services: ['.service.ts', '.rules.ts', '.policy.ts', '.errors.ts'],
  domain: ['.rules.ts', '.policy.ts', '.errors.ts'],
  endpoints: ['.endpoint.ts', '.fields.ts', '.endpoints.ts', '.deps.ts'],
  repositories: ['.repository.ts'],
  guards: ['.guard.ts'],
  http: ['.http.ts'],
  views: ['.page.ts'],
  jobs: ['.job.ts', '.worker.ts'],
};

/** `x.rules.spec.ts` is the spec of `x.rules.ts`. */
const roleName = (file: string): string => file.replace(/\.spec\.ts$/, '.ts');

describe('every file in a layer folder has that layer’s role suffix', () => {
  for (const pkg of layeredPackages()) {
    it(pkg, () => {
      const wrong: string[] = [];
      for (const file of typescriptFiles(join(repoRoot, pkg, 'src'))) {
        const folders = file.split('/').slice(3, -1);
        const layer = folders.find((folder) => folder in ROLE_SUFFIXES);
        if (layer === undefined) continue;
        const allowed = ROLE_SUFFIXES[layer]!;
        if (!allowed.some((suffix) => roleName(file).endsWith(suffix)))
          wrong.push(`${file} (in ${layer}/: ${allowed.join(' or ')})`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
