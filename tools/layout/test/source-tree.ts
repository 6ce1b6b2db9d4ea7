import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Every `apps/*` and `packages/*` that has a `src/`, as its path from the repository root. */
export function sourcePackages(): string[] {
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(join(repoRoot, group))
      .map((name) => `${group}/${name}`)
      .filter((dir) => {
        try {
          return statSync(join(repoRoot, dir, 'src')).isDirectory();
        } catch {
          return false;
        }
      }),
  );
}

/**
 * The packages built on the layered skeleton (routes → handlers → services → repositories): every
 * app, and the auth package. The kit's folders hold mechanisms (its `validation/` is `validate()`
 * itself), not layers.
 */
export function layeredPackages(): string[] {
  return sourcePackages().filter((pkg) => pkg.startsWith('apps/') || pkg === 'packages/auth');
}

/** Every `.ts` file below `dir` (absolute), as paths relative to the repository root. */
export function typescriptFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(relative(repoRoot, path));
    }
  };
  walk(dir);
  return out.sort();
}

export const readSource = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');
