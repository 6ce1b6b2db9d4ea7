import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYER_ORDER_ALLOWED } from './layer-order.allowed.js';
import { layeredPackages, readSource, repoRoot, typescriptFiles } from './source-tree.js';

/**
 * The layers of an app from the bottom up (docs/adr/0008, amended by 0016): an import may run
 * down or across, never up. The entity schemas and the domain's rules, policies and errors are
 * below both the repositories and the services, so an adapter uses a rule without an arrow
 * running back up; handlers, the HTTP helpers and the metrics sit above the services; routes, validation and
 * endpoint declarations above the handlers. A browser app's components sit beside its views. Files directly under `src/` other than `config.ts`,
 * and the CLI and health folders, wire the layers together and stand on top (benchmarks sit beside
 * `src/`, in `bench/`, and are no layer of the app).
 */
const RANK: Record<string, number> = {
  db: 0,
  types: 0,
  domain: 1,
  'config.ts': 2,
  repositories: 3,
  services: 4,
  views: 5,
  // The console's (apps/console) DOM building blocks, which its views are made of.
  components: 5,
  http: 5,
  guards: 5,
  // What counts the outcomes the services' rules name, for the jobs and the wiring to report.
  metrics: 5,
  handlers: 6,
  validation: 6,
  routes: 7,
  endpoints: 7,
  jobs: 7,
};
const TOP = 8;

/** A file's layer: its first folder under `src/` (or its name when it sits in `src/` itself). */
function layerOf(file: string): { name: string; rank: number } {
  const [, , , first = ''] = file.split('/');
  const name = first.endsWith('.ts') && first !== 'config.ts' ? '(wiring)' : first;
  return { name, rank: RANK[name] ?? TOP };
}

/** The relative imports of a file (static imports and re-exports, type-only included), as repository paths. */
function localImports(file: string): string[] {
  const specs = [...readSource(file).matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map(
    (match) => match[1]!,
  );
  return specs
    .map((spec) => normalize(join(dirname(file), spec.replace(/\.js$/, '.ts'))))
    .filter((target) => existsSync(join(repoRoot, target)));
}

/** Every import in the package that runs from a lower layer to a higher one, as `from → to`. */
export function upwardImports(pkg: string): string[] {
  const found: string[] = [];
  for (const file of typescriptFiles(join(repoRoot, pkg, 'src'))) {
    if (file.endsWith('.spec.ts')) continue;
    const from = layerOf(file);
    for (const target of localImports(file)) {
      const to = layerOf(target);
      if (to.rank > from.rank) found.push(`${file} → ${target}`);
    }
  }
  return found;
}

/** Every pair of files of the package that import each other, once, as `a ⇄ b`. */
export function mutualImports(pkg: string): string[] {
  const graph = new Map<string, Set<string>>();
  for (const file of typescriptFiles(join(repoRoot, pkg, 'src'))) graph.set(file, new Set(localImports(file)));
  const pairs: string[] = [];
  for (const [a, targets] of graph)
    for (const b of targets) if (a < b && graph.get(b)?.has(a)) pairs.push(`${a} ⇄ ${b}`);
  return pairs;
}

describe('no import runs from a lower layer to a higher one, and no two files import each other', () => {
  for (const pkg of layeredPackages()) {
    const allowed = LAYER_ORDER_ALLOWED[pkg] ?? [];
    it(`${pkg}: imports run down the layers`, () => {
      expect(upwardImports(pkg).filter((edge) => !allowed.includes(edge))).toEqual([]);
    });
    it(`${pkg}: no two files import each other`, () => {
      expect(mutualImports(pkg).filter((pair) => !allowed.includes(pair))).toEqual([]);
    });
    it(`${pkg}: every allowed exception still exists (remove it once fixed)`, () => {
      const found = new Set([...upwardImports(pkg), ...mutualImports(pkg)]);
      expect(allowed.filter((edge) => !found.has(edge))).toEqual([]);
    });
  }

  it('knows each layer an app has', () => {
    expect(layerOf('apps/x/src/domain/a.rules.ts').rank).toBeLessThan(
      layerOf('apps/x/src/repositories/a.repository.ts').rank,
    );
    expect(layerOf('apps/x/src/repositories/a.repository.ts').rank).toBeLessThan(
      layerOf('apps/x/src/services/a.service.ts').rank,
    );
    expect(layerOf('apps/x/src/services/a.service.ts').rank).toBeLessThan(
      layerOf('apps/x/src/handlers/a.handler.ts').rank,
    );
    expect(layerOf('apps/x/src/handlers/a.handler.ts').rank).toBeLessThan(
      layerOf('apps/x/src/endpoints/a.endpoint.ts').rank,
    );
    expect(layerOf('apps/x/src/app.ts').rank).toBe(TOP);
  });
});
