import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { LinkImportRepository, shortenerDatabase, type ImportedEntry } from '@pawlink/shortener';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startByteLimitedProxy, type ByteLimitedProxy } from './byte-limited-proxy.js';
import { ADMIN, runAdmin } from './run-admin.js';

/*
 * `bin/admin links export` when MariaDB dies part way (a proxy that cuts every connection once
 * 2.5 MB of answers have passed, of the ~6 MB the export reads: after the first page of 500, before
 * the last) and when its reader stops early (`| head -1`).
 */

const LINKS = 3_000;
const CUT_AFTER_BYTES = 2_500_000;
const LONG_PATH = 'p'.repeat(1_950);
const HEADER = 'url,code,credit,createdAt,tags,expiresAt,maxVisits,visits';

let ctx: TestContext;
let owner: number;
let dir: string;
const proxies: ByteLimitedProxy[] = [];

const entry = (i: number): ImportedEntry => ({
  code: `cut-${i}`,
  url: `https://example.com/${LONG_PATH}/${i}`,
  credit: 'Unknown',
  createdAt: new Date(Date.UTC(2022, 0, 1) + i * 1000),
  expiresAt: null,
  maxVisits: null,
  tags: [],
  visits: 0,
  origin: `cut-${i}`,
});

beforeAll(async () => {
  ctx = await createTestContext('links-export-cut');
  expect((await runAdmin(ctx.env, ['migrate'])).code).toBe(0);
  const { database } = loadBaseConfig(ctx.env);
  const auth = createDataSource(database, authDatabase);
  const shortener = createDataSource(database, shortenerDatabase);
  await Promise.all([auth.initialize(), shortener.initialize()]);
  try {
    owner = (await new ApiKeyRepository(auth).create({ name: 'Cut', contact: 'cut@example.com', flags: [] })).record.id;
    const imports = new LinkImportRepository(shortener);
    for (let i = 0; i < LINKS; i += 500)
      expect(
        await imports.insertBatch(
          owner,
          'csv',
          Array.from({ length: 500 }, (_, j) => entry(i + j)),
          new Date(),
        ),
      ).toBe(true);
  } finally {
    await Promise.all([auth.destroy(), shortener.destroy()]);
  }
  dir = await mkdtemp(path.join(os.tmpdir(), 'links-export-cut-'));
}, 180_000);

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  await ctx?.cleanup();
});

/** The test's environment with MariaDB behind a proxy that dies after CUT_AFTER_BYTES. */
async function dyingDatabaseEnv(): Promise<{ env: Record<string, string>; proxy: ByteLimitedProxy }> {
  const { database } = loadBaseConfig(ctx.env);
  const proxy = await startByteLimitedProxy({ host: database.host, port: database.port }, CUT_AFTER_BYTES);
  proxies.push(proxy);
  return { env: { ...ctx.env, DB_HOST: proxy.host, DB_PORT: String(proxy.port) }, proxy };
}

const exportArgs = (): string[] => ['links', 'export', '--owner', String(owner)];

/** `bash -o pipefail -c <script>` with `$ADMIN` set to bin/admin; stdout as large as an export. */
function runShell(
  env: Record<string, string>,
  script: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-o', 'pipefail', '-c', script],
      { env: { ...process.env, ...env, ADMIN }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('bin/admin links export when the database fails part way', { timeout: 120_000 }, () => {
  it('to --out: exit 1 with the reason on stderr, and the file is not written (what was there stays)', async () => {
    const { env, proxy } = await dyingDatabaseEnv();
    const where = await mkdtemp(path.join(dir, 'out-'));
    const out = path.join(where, 'links.csv');
    await writeFile(out, 'an earlier export\n');
    const result = await runAdmin(env, [...exportArgs(), '--out', out]);
    expect(proxy.cut).toBe(true);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: The export stopped after \\d+ links: .+; ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was not written\\.\\n$`,
      ),
    );
    expect(await readFile(out, 'utf8')).toBe('an earlier export\n');
    // No partial file is left beside it.
    expect(await readdir(where)).toEqual(['links.csv']);
  });

  it('to stdout: exit 1 with the reason on stderr, after part of the links', async () => {
    const { env, proxy } = await dyingDatabaseEnv();
    const result = await runShell(env, `"$ADMIN" links export --owner ${owner}`);
    expect(proxy.cut).toBe(true);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: The export stopped after \d+ links: .+; what stdout received is incomplete\.\n$/,
    );
    const lines = result.stdout.split('\r\n');
    expect(lines[0]).toBe(HEADER);
    const written = Number(/after (\d+) links/.exec(result.stderr)![1]);
    expect(written).toBeGreaterThanOrEqual(500);
    expect(written).toBeLessThan(LINKS);
    expect(lines.length - 2).toBe(written);
  });
});

describe('bin/admin links export whose reader stops early', { timeout: 120_000 }, () => {
  it('`| head -1` under pipefail: exits 0 quietly once nobody reads', async () => {
    // Behind the proxy only to count what it reads: a page or two (~1 MB each), not the ~6 MB of all.
    const { env, proxy } = await dyingDatabaseEnv();
    const result = await runShell(env, `"$ADMIN" links export --owner ${owner} | head -1`);
    expect(result).toEqual({ code: 0, stdout: `${HEADER}\r\n`, stderr: '' });
    expect(proxy.cut).toBe(false);
    expect(proxy.passed).toBeLessThan(CUT_AFTER_BYTES);
  });

  it('--out to what is not a regular file (/dev/stdout) writes there directly', async () => {
    const result = await runShell(ctx.env, `"$ADMIN" links export --owner ${owner} --out /dev/stdout | cat`);
    expect([result.code, result.stderr]).toEqual([0, '']);
    const lines = result.stdout.split('\r\n');
    expect([lines[0], lines.length, lines[LINKS + 1]]).toEqual([
      HEADER,
      LINKS + 2,
      `Exported ${LINKS} links to /dev/stdout.\n`,
    ]);
  });

  it('an output that fails (/dev/full: no space left) exits 1 with the reason', async () => {
    const result = await runAdmin(ctx.env, [...exportArgs(), '--out', '/dev/full']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: The export stopped after \d+ links: ENOSPC.+; what \/dev\/full received is incomplete\.\n$/,
    );
  });

  it('a whole export still ends with every link', async () => {
    const out = path.join(dir, 'whole.csv');
    const result = await runAdmin(ctx.env, [...exportArgs(), '--out', out]);
    expect([result.code, result.lastLine]).toEqual([0, `Exported ${LINKS} links to ${out}.`]);
    expect((await readFile(out, 'utf8')).split('\r\n').length).toBe(LINKS + 2);
  });
});
