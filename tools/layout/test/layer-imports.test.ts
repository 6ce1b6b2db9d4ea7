import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSource, repoRoot, layeredPackages, typescriptFiles } from './source-tree.js';

/** The relative import specifiers of a module (static imports and re-exports). */
const importsOf = (source: string): string[] =>
  [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((match) => match[1]!);

describe('a request goes route → handler → service → repository (STYLE.md §1, §12)', () => {
  for (const pkg of layeredPackages()) {
    it(`${pkg}: no handler imports a repository`, () => {
      const offenders = typescriptFiles(join(repoRoot, pkg, 'src'))
        .filter((file) => file.includes('/handlers/'))
        .flatMap((file) =>
          importsOf(readSource(file))
            .filter((spec) => /(^|\/)repositories\//.test(spec))
            .map((spec) => `${file} imports ${spec}`),
        );
      expect(offenders).toEqual([]);
    });
  }
});
