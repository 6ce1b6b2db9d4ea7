import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSource, repoRoot, sourcePackages } from './source-tree.js';

/**
 * docs/architecture.md has, for every package with routes or endpoint declarations, a table
 * headed "### Endpoints of `apps/<name>`". A package on the route skeleton has the columns
 * endpoint → route → validation → handler → service → repositories; one whose endpoints are
 * declared (docs/adr/0016) has endpoint → declaration → service → repositories. Each cell names
 * files of that layer's folder under the package's `src/` (a service cell may name the domain's
 * rules). The table must match the code: the files exist, one endpoint's own files share its stem
 * (STYLE.md §11), and no route, handler or declaration file is left out.
 */
const COLUMNS = {
  route: ['routes'],
  validation: ['validation'],
  handler: ['handlers'],
  declaration: ['endpoints'],
  service: ['services', 'domain'],
  repositories: ['repositories'],
} as const;
type Column = keyof typeof COLUMNS;

interface EndpointRow {
  endpoint: string;
  files: Partial<Record<Column, string[]>>;
}

const doc = readSource('docs/architecture.md');
const cellsOf = (line: string): string[] =>
  line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

function tablesByPackage(): Map<string, EndpointRow[]> {
  const tables = new Map<string, EndpointRow[]>();
  const lines = doc.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{2,4} Endpoints of `((?:apps|packages)\/[\w-]+)`\s*$/.exec(lines[i]!);
    if (!heading) continue;
    const rows: EndpointRow[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith('|')) j++;
    const header = cellsOf(lines[j]!).slice(1) as Column[];
    for (const column of header)
      if (!(column in COLUMNS)) throw new Error(`unknown column "${column}" in ${heading[1]}`);
    // the header row and the separator
    j += 2;
    for (; j < lines.length && lines[j]!.startsWith('|'); j++) {
      const cells = cellsOf(lines[j]!);
      const fileList = (cell: string): string[] => [...cell.matchAll(/`([^`]+\.ts)`/g)].map((m) => m[1]!);
      rows.push({
        endpoint: cells[0] ?? '',
        files: Object.fromEntries(header.map((column, index) => [column, fileList(cells[index + 1] ?? '')])),
      });
    }
    tables.set(heading[1]!, rows);
  }
  return tables;
}

const tables = tablesByPackage();
const hasFolder = (pkg: string, folder: string): boolean => existsSync(join(repoRoot, pkg, 'src', folder));
const withEndpoints = sourcePackages().filter((pkg) => hasFolder(pkg, 'routes') || hasFolder(pkg, 'endpoints'));
const filesIn = (pkg: string, folder: string, suffix: string): string[] => {
  const dir = join(repoRoot, pkg, 'src', folder);
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(suffix) && !name.endsWith('.spec.ts')) : [];
};
const existsIn = (pkg: string, column: Column, file: string): boolean =>
  COLUMNS[column].some((folder) => existsSync(join(repoRoot, pkg, 'src', folder, file)));

/** The file an endpoint's stem is read from: its declaration, else its route. */
const stemOf = (row: EndpointRow): string | undefined =>
  row.files.declaration?.[0]?.replace(/\.endpoint\.ts$/, '') ?? row.files.route?.[0]?.replace(/\.routes\.ts$/, '');

describe('docs/architecture.md: the endpoint tables match the code', () => {
  it('has a table for every package with routes or endpoint declarations', () => {
    expect([...tables.keys()].sort()).toEqual(withEndpoints.sort());
  });

  for (const [pkg, rows] of tables) {
    describe(pkg, () => {
      it('names files that exist', () => {
        const missing = rows.flatMap((row) =>
          (Object.entries(row.files) as Array<[Column, string[]]>).flatMap(([column, files]) =>
            files.filter((file) => !existsIn(pkg, column, file)).map((file) => `${row.endpoint}: ${column} ${file}`),
          ),
        );
        expect(missing).toEqual([]);
      });

      it("gives each endpoint's own files (route, validation, handler or declaration, service) its one stem", () => {
        const strays: string[] = [];
        for (const row of rows) {
          const stem = stemOf(row);
          if (stem === undefined) {
            strays.push(`${row.endpoint}: no route or declaration file`);
            continue;
          }
          const own = [
            ...(row.files.route ?? []),
            ...(row.files.validation ?? []),
            ...(row.files.handler ?? []),
            ...(row.files.declaration ?? []),
            ...(row.files.service ?? []).filter((file) => file.endsWith('.service.ts')),
          ];
          for (const file of own)
            if (!file.startsWith(stem)) strays.push(`${row.endpoint}: ${file} does not start with ${stem}`);
          if (row.files.declaration === undefined && (row.files.handler ?? []).length === 0)
            strays.push(`${row.endpoint}: no handler`);
        }
        expect(strays).toEqual([]);
      });

      it('leaves no route, handler or declaration file out', () => {
        const listed = (column: Column): Set<string> => new Set(rows.flatMap((row) => row.files[column] ?? []));
        const unlisted = [
          ...filesIn(pkg, 'routes', '.ts')
            .filter((file) => !listed('route').has(file))
            .map((f) => `routes/${f}`),
          ...filesIn(pkg, 'handlers', '.ts')
            .filter((file) => !listed('handler').has(file))
            .map((f) => `handlers/${f}`),
          ...filesIn(pkg, 'endpoints', '.endpoint.ts')
            .filter((file) => !listed('declaration').has(file))
            .map((f) => `endpoints/${f}`),
        ];
        expect(unlisted).toEqual([]);
      });
    });
  }
});
