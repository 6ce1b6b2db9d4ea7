import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSource, repoRoot, typescriptFiles } from './source-tree.js';

/**
 * Benchmarks live beside an app's `src/`, in `bench/` with their own build (`bench/tsconfig.json`,
 * output in `bench/dist/`): nothing of them is built into the app's `dist`, and the app's source
 * never reaches the dev dependency `@pawlink/bench` or a bench file.
 */

const apps = (): string[] =>
  readdirSync(join(repoRoot, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(repoRoot, 'apps', entry.name, 'src')))
    .map((entry) => `apps/${entry.name}`);

/** Every module specifier of a file: static imports, re-exports, `import('…')` and side-effect imports. */
function specifiers(text: string): string[] {
  return [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
}

/** The imports of `file` (a repository path under `<app>/src`) that reach a benchmark. */
export function benchImports(app: string, file: string, text: string): string[] {
  const benchDir = `${app}/bench/`;
  return specifiers(text).filter((spec) => {
    if (spec === '@pawlink/bench' || spec.startsWith('@pawlink/bench/')) return true;
    if (!spec.startsWith('.')) return false;
    return `${normalize(join(dirname(file), spec))}/`.startsWith(benchDir);
  });
}

describe('benchmarks stay out of the apps’ source and builds', () => {
  it('finds what it looks for (the scan itself works)', () => {
    const file = 'apps/x/src/services/a.service.ts';
    const text = [
      "import { startService } from '@pawlink/bench';",
      "import type { CeilingConfig } from '@pawlink/bench/ceiling';",
      "export { seed } from '../../bench/seed.js';",
      "const later = await import('../../bench/main.js');",
      "import { rule } from '../domain/a.rules.js';",
      "import { other } from '@pawlink/bench-like';",
      "import { benchy } from '../bench-notes.js';",
    ].join('\n');
    expect(benchImports('apps/x', file, text)).toEqual([
      '@pawlink/bench',
      '@pawlink/bench/ceiling',
      '../../bench/seed.js',
      '../../bench/main.js',
    ]);
  });

  for (const app of apps()) {
    it(`${app}: no src/bench folder`, () => {
      expect(existsSync(join(repoRoot, app, 'src', 'bench'))).toBe(false);
    });

    it(`${app}: no file of src/ imports @pawlink/bench or a bench file`, () => {
      const found = typescriptFiles(join(repoRoot, app, 'src')).flatMap((file) =>
        benchImports(app, file, readSource(file)).map((spec) => `${file} → ${spec}`),
      );
      expect(found).toEqual([]);
    });

    // The console is built by Vite from its index.html, which has no bench to reach.
    const buildConfig = join(repoRoot, app, 'tsconfig.build.json');
    it.runIf(existsSync(buildConfig))(`${app}: its build (dist) is made from src/ alone`, () => {
      const build = JSON.parse(readFileSync(buildConfig, 'utf8')) as {
        include?: string[];
      };
      expect(build.include).toEqual(['src']);
    });
  }
});
