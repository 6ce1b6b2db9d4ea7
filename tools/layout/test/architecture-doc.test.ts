import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSource, repoRoot, sourcePackages } from './source-tree.js';

/**
 * docs/architecture.md has, for every package with routes, a table headed
 * "### Endpoints of `apps/<name>`": endpoint → route → validation → handler → service →
 * repositories, each a file of that layer's folder under the package's `src/`. The table must
 * match the code: the files exist, one endpoint's route, validation, handler and service files
 * share its stem (STYLE.md §11), and no route or handler file is left out.
 */
const LAYERS = ['routes', 'validation', 'handlers', 'services', 'repositories'] as const;
type Layer = (typeof LAYERS)[number];

interface EndpointRow {
  endpoint: string;
  files: Record<Layer, string[]>;
}

const doc = readSource('docs/architecture.md');

function tablesByPackage(): Map<string, EndpointRow[]> {
  const tables = new Map<string, EndpointRow[]>();
  const lines = doc.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{2,4} Endpoints of `((?:apps|packages)\/[\w-]+)`\s*$/.exec(lines[i]!);
    if (!heading) continue;
    const rows: EndpointRow[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith('|')) j++;
    // the header row and the separator
    j += 2;
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) {
      const cells = lines[j]!.split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      const fileList = (cell: string): string[] => [...cell.matchAll(/`([^`]+\.ts)`/g)].map((m) => m[1]!);
      rows.push({
        endpoint: cells[0] ?? '',
        files: {
          routes: fileList(cells[1] ?? ''),
          validation: fileList(cells[2] ?? ''),
          handlers: fileList(cells[3] ?? ''),
          services: fileList(cells[4] ?? ''),
          repositories: fileList(cells[5] ?? ''),
        },
      });
    }
    tables.set(heading[1]!, rows);
  }
  return tables;
}

const tables = tablesByPackage();
const withRoutes = sourcePackages().filter((pkg) => existsSync(join(repoRoot, pkg, 'src', 'routes')));
const filesIn = (pkg: string, layer: Layer): string[] => {
  const dir = join(repoRoot, pkg, 'src', layer);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts')) : [];
};

describe('docs/architecture.md: the endpoint tables match the code', () => {
  it('has a table for every package with routes', () => {
    expect([...tables.keys()].sort()).toEqual(withRoutes.sort());
  });

  for (const [pkg, rows] of tables) {
    describe(pkg, () => {
      it('names files that exist', () => {
        const missing = rows.flatMap((row) =>
          LAYERS.flatMap((layer) =>
            row.files[layer]
              .filter((file) => !existsSync(join(repoRoot, pkg, 'src', layer, file)))
              .map((file) => `${row.endpoint}: ${layer}/${file}`),
          ),
        );
        expect(missing).toEqual([]);
      });

      it("gives each endpoint's route, validation, handler and service files its one stem", () => {
        const strays: string[] = [];
        for (const row of rows) {
          const route = row.files.routes[0];
          if (route === undefined) {
            strays.push(`${row.endpoint}: no route file`);
            continue;
          }
          const stem = route.replace(/\.routes\.ts$/, '');
          const own = [
            ...row.files.routes,
            ...row.files.validation,
            ...row.files.handlers,
            ...row.files.services.filter((file) => file.endsWith('.service.ts')),
          ];
          for (const file of own)
            if (!file.startsWith(stem)) strays.push(`${row.endpoint}: ${file} does not start with ${stem}`);
          if (row.files.handlers.length === 0) strays.push(`${row.endpoint}: no handler`);
        }
        expect(strays).toEqual([]);
      });

      it('leaves no route or handler file out', () => {
        const listed = (layer: Layer): Set<string> => new Set(rows.flatMap((row) => row.files[layer]));
        const unlisted = (['routes', 'handlers'] as const).flatMap((layer) =>
          filesIn(pkg, layer)
            .filter((file) => !listed(layer).has(file))
            .map((file) => `${layer}/${file}`),
        );
        expect(unlisted).toEqual([]);
      });
    });
  }
});
