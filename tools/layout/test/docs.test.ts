import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './source-tree.js';

/**
 * The README is a front page and `docs/` holds the rest, by reader: every relative link between
 * them must lead somewhere, and every environment variable the code reads is documented once, in
 * a table headed `variable`.
 */

/** Variables the code reads that no operator sets: the system's, and hand-offs between our own scripts. */
const NOT_SETTINGS: Record<string, string> = {
  HOME: 'the system',
  PATH: 'the system',
  TMPDIR: 'the system',
  CI: 'set by CI runners: the bootstrap then never rewrites a stale pnpm-lock.yaml',
  KEY: "a variable of scripts/start.sh's own",
  DEMO_KEY: 'scripts/start.sh → scripts/start-banner.mjs',
  SHORT_LINKS: 'scripts/start.sh → scripts/start-banner.mjs',
  START_MS: 'scripts/start.sh → scripts/start-banner.mjs',
  SERVICES_MS: 'scripts/start.sh → scripts/start-banner.mjs',
  PAWLINK_ROOT: 'bin/admin → tools/admin (the checkout it runs in)',
  BENCH_FLOOR_SETTINGS: "tools/bench's framework floor → the Express server it starts",
};

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const file = join(dir, entry);
    if (statSync(file).isDirectory()) found.push(...filesUnder(file, keep));
    else if (keep(file)) found.push(file);
  }
  return found;
}

const markdownFiles = [join(repoRoot, 'README.md'), ...filesUnder(join(repoRoot, 'docs'), (f) => f.endsWith('.md'))];

/** A Markdown file's lines outside fenced code blocks. */
function proseLines(file: string): string[] {
  let fenced = false;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && !line.startsWith('```');
    });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(file)) {
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

describe('links in the README and docs/', () => {
  it('the README stays a front page (at most ~200 lines)', () => {
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });

  it.each(markdownFiles.map((file) => [relative(repoRoot, file), file]))(
    '%s: every relative link resolves',
    (_name, file) => {
      const broken: string[] = [];
      for (const line of proseLines(file)) {
        for (const link of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = link[1]!;
          if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
          const [path = '', anchor] = target.split('#');
          const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
          if (!existsSync(resolved)) {
            broken.push(`${target}: no such file`);
          } else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
            broken.push(`${target}: no heading with that anchor`);
          }
        }
      }
      expect(broken).toEqual([]);
    },
  );
});

/** Every variable the code reads: config readers `(env, 'NAME'`, `env.NAME`, and `${NAME:-…}` in the scripts. */
function variablesRead(): Map<string, string> {
  const read = new Map<string, string>();
  const note = (name: string, file: string) => read.has(name) || read.set(name, relative(repoRoot, file));
  const sources = ['apps', 'packages', 'tools'].flatMap((top) =>
    readdirSync(join(repoRoot, top)).flatMap((pkg) =>
      // an app's benchmarks sit beside its src/ (they read BENCH_* variables)
      ['src', 'bench'].flatMap((folder) => {
        const dir = join(repoRoot, top, pkg, folder);
        return existsSync(dir) ? filesUnder(dir, (f) => f.endsWith('.ts') && !/\.(spec|test)\.ts$/.test(f)) : [];
      }),
    ),
  );
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\(\s*env\s*,\s*'([A-Z][A-Z0-9_]+)'|\benv(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) {
      note((match[1] ?? match[2])!, file);
    }
  }
  const scripts = [
    ...filesUnder(join(repoRoot, 'scripts'), () => true),
    ...filesUnder(join(repoRoot, 'bin'), () => true),
  ];
  for (const file of scripts) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\$\{([A-Z][A-Z0-9_]+):?[-=+?]|\benv(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) {
      note((match[1] ?? match[2])!, file);
    }
  }
  return read;
}

/** Where each variable is defined: the first cell of a row of a table whose first header is `variable`. */
function variablesDocumented(): Map<string, string[]> {
  const documented = new Map<string, string[]>();
  for (const file of markdownFiles) {
    let inVariableTable = false;
    for (const line of proseLines(file)) {
      if (!line.startsWith('|')) {
        inVariableTable = false;
        continue;
      }
      const firstCell = line.split('|')[1]!.trim();
      if (firstCell === 'variable') inVariableTable = true;
      if (!inVariableTable) continue;
      for (const name of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) {
        documented.set(name[1]!, [...(documented.get(name[1]!) ?? []), relative(repoRoot, file)]);
      }
    }
  }
  return documented;
}

describe('environment variables', () => {
  const read = variablesRead();
  const documented = variablesDocumented();

  it('finds the variables the code reads (the scan itself works)', () => {
    expect(read.get('DB_HOST')).toBeDefined();
    expect(read.get('PAWLINK_BOOTSTRAP')).toBe('scripts/bootstrap.sh');
    expect(documented.get('DB_HOST')).toEqual(['docs/configuration.md']);
  });

  it('every variable the code reads is documented', () => {
    const missing = [...read]
      .filter(([name]) => !(name in NOT_SETTINGS) && !documented.has(name))
      .map(([name, file]) => `${name} (read in ${file})`);
    expect(missing).toEqual([]);
  });

  it('each documented once', () => {
    const twice = [...documented]
      .filter(([, files]) => files.length > 1)
      .map(([name, files]) => `${name}: ${files.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('the hand-offs listed as not settings are still read, and not documented as settings', () => {
    for (const name of Object.keys(NOT_SETTINGS)) {
      expect(read.has(name), name).toBe(true);
      expect(documented.has(name), name).toBe(false);
    }
  });
});
