import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { shortenerDatabase } from '@pawlink/shortener';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport } from './link-import-helpers.js';
import { runAdmin } from './run-admin.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/links/', import.meta.url));

let ctx: TestContext;
let auth: DataSource;
let shortener: DataSource;
let dir: string;

beforeAll(async () => {
  ctx = await createTestContext('links-import');
  expect((await runAdmin(ctx.env, ['migrate'])).code).toBe(0);
  const config = loadBaseConfig(ctx.env);
  auth = createDataSource(config.database, authDatabase);
  shortener = createDataSource(config.database, shortenerDatabase);
  await Promise.all([auth.initialize(), shortener.initialize()]);
  dir = await mkdtemp(path.join(os.tmpdir(), 'links-import-'));
});

afterAll(async () => {
  await Promise.all([auth.destroy(), shortener.destroy()]);
  await ctx.cleanup();
});

const newKey = async () =>
  (await new ApiKeyRepository(auth).create({ name: 'Import', contact: 'import@example.com', flags: [] })).record.id;

interface Row {
  code: string;
  url: string;
  credit: string;
  created_at: Date;
  expires_at: Date | null;
  max_visits: number | null;
  max_visits_used: number;
  owner_key_id: number;
  shared_url_hash: Buffer | null;
  management_code_hash: string | null;
  visits: string | number | null;
}

const rowsOf = (owner: number): Promise<Row[]> =>
  shortener.query(
    `SELECT s.*, i.visits FROM short_urls s LEFT JOIN short_url_imports i ON i.short_url_pos = s.pos
      WHERE s.owner_key_id = ? ORDER BY s.pos`,
    [owner],
  );

const importCsv = (owner: number, file: string, ...more: string[]) => {
  const report = path.join(dir, `${owner}-${Math.random().toString(36).slice(2)}.jsonl`);
  return runAdmin(ctx.env, [
    'links',
    'import',
    file,
    '--from',
    'csv',
    '--owner',
    String(owner),
    '--report',
    report,
    ...more,
  ]).then((result) => ({ ...result, report }));
};

// Each case runs bin/admin several times (a process start each, slow on a busy machine).
describe('bin/admin links import --from csv', { timeout: 180_000 }, () => {
  it('imports a CSV with a BOM, quoted commas and line breaks, refusing what the API refuses, with the report', async () => {
    const owner = await newKey();
    const result = await importCsv(owner, path.join(FIXTURES, 'links.csv'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.lastLine).toBe(`Imported 4 (0 under a new code), skipped 0, refused 2. Report: ${result.report}`);

    const { lines, summary } = await readReport(result.report);
    expect(lines).toEqual([
      {
        outcome: 'refused',
        at: 'row 3',
        code: 'local-target',
        reason: 'The provided url is invalid: local host names are not allowed.',
      },
      { outcome: 'refused', at: 'row 5', code: 'bad-date', reason: 'createdAt "yesterday" is not an ISO 8601 date' },
    ]);
    expect(summary).toMatchObject({
      source: 'csv',
      owner,
      dryRun: false,
      stopped: null,
      imported: 4,
      renamed: 0,
      skipped: 0,
      refused: 2,
      refusedFor: {
        'The provided url is invalid: local host names are not allowed.': 1,
        'createdAt "…" is not an ISO 8601 date': 1,
      },
    });

    const rows = await rowsOf(owner);
    expect(rows.map((r) => [r.code, r.url, r.credit, r.created_at.toISOString(), Number(r.visits)])).toEqual([
      ['quoted-comma', 'https://example.com/search?q=a,b&x=1', 'Smith, Jane', '2021-03-04T05:06:07.000Z', 12],
      ['multi-line', 'https://example.org/multi', 'first line second line', '2022-01-02T03:04:05.000Z', 7],
      [rows[2]!.code, 'https://example.net/no-code', 'Unknown', '2020-02-02T00:00:00.000Z', 0],
      ['quote', 'https://example.com/said', 'He said "hi"', '2024-06-01T00:00:00.000Z', 5],
    ]);
    expect(rows[2]!.code).toMatch(/^[A-Za-z0-9]{8}$/);
    const limited = rows[1]!;
    expect([limited.expires_at?.toISOString(), limited.max_visits, limited.max_visits_used]).toEqual([
      '2030-01-01T00:00:00.000Z',
      100,
      7,
    ]);
    const tags: Array<{ tag: string }> = await shortener.query(
      'SELECT t.tag FROM short_url_tags t JOIN short_urls s ON s.pos = t.short_url_pos WHERE s.code = ? ORDER BY t.tag',
      ['quoted-comma'],
    );
    expect(tags.map((t) => t.tag)).toEqual(['news', 'tech']);
    // Never shared with other creators, and no management code exists for them.
    expect(rows.every((r) => r.shared_url_hash === null && r.management_code_hash === null)).toBe(true);
  });

  it('skips on a re-run what is already in (resumable), and writes nothing on a dry run', async () => {
    const owner = await newKey();
    const file = path.join(dir, 'resumable.csv');
    await writeFile(
      file,
      'url,code,visits,tags\nhttps://example.com/r1,resume-1,3,\nhttps://example.com/r2,,4,\nhttp://10.0.0.1/,resume-3,1,\nhttps://example.com/r4,resume-4,0,Bad Tag!\n',
    );
    const dry = await importCsv(owner, file, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.lastLine).toMatch(/^Would import 2 \(0 under a new code\), skipped 0, refused 2\./);
    expect(await rowsOf(owner)).toEqual([]);

    expect((await importCsv(owner, file)).code).toBe(0);
    const again = await importCsv(owner, file);
    expect(again.code).toBe(0);
    expect(again.lastLine).toMatch(/^Imported 0 \(0 under a new code\), skipped 2, refused 2\./);
    const { summary } = await readReport(again.report);
    expect(summary.skippedFor).toEqual({ 'already imported': 2 });
    expect(summary.refusedFor).toEqual({
      'The provided url is invalid: private, loopback and reserved addresses are not allowed.': 1,
      'The provided tags are invalid: tag 0 ("…") must be 1 to 32 characters of a-z, 0-9 and -.': 1,
    });
    expect((await rowsOf(owner)).map((r) => [r.url, Number(r.visits)])).toEqual([
      ['https://example.com/r1', 3],
      ['https://example.com/r2', 4],
    ]);
  });

  it('follows --on-conflict for a code another key holds and a code not valid here', async () => {
    const holder = await newKey();
    const file = path.join(dir, 'conflicts.csv');
    await writeFile(
      file,
      'url,code\nhttps://example.com/held,held-code\nhttps://example.com/bad,bad_code!\nhttps://example.com/free,free-code\n',
    );
    await writeFile(path.join(dir, 'holder.csv'), 'url,code\nhttps://example.com/other,held-code\n');
    expect((await importCsv(holder, path.join(dir, 'holder.csv'))).code).toBe(0);

    const skipper = await newKey();
    const skipped = await importCsv(skipper, file, '--on-conflict', 'skip');
    expect(skipped.code).toBe(0);
    expect((await readReport(skipped.report)).lines).toEqual([
      { outcome: 'skipped', at: 'row 1', code: 'held-code', reason: 'the code is in use here' },
      {
        outcome: 'skipped',
        at: 'row 2',
        code: 'bad_code!',
        reason: 'the code is not valid here (A-Z, a-z, 0-9 and -, at most 50)',
      },
    ]);
    expect((await rowsOf(skipper)).map((r) => r.code)).toEqual(['free-code']);

    const renamer = await newKey();
    const renamed = await importCsv(renamer, file, '--on-conflict', 'rename');
    expect(renamed.code).toBe(0);
    const { lines } = await readReport(renamed.report);
    // free-code is the skipper's now, so it is renamed too.
    expect(lines.map((l) => [l.outcome, l.at, l.from])).toEqual([
      ['renamed', 'row 1', 'held-code'],
      ['renamed', 'row 2', 'bad_code!'],
      ['renamed', 'row 3', 'free-code'],
    ]);
    const rows = await rowsOf(renamer);
    expect(rows.map((r) => [r.url, r.code])).toEqual([
      ['https://example.com/held', lines[0]!.code],
      ['https://example.com/bad', lines[1]!.code],
      ['https://example.com/free', lines[2]!.code],
    ]);
    expect(rows.every((r) => /^[A-Za-z0-9]{8}$/.test(r.code))).toBe(true);

    const failer = await newKey();
    const failed = await importCsv(failer, file, '--on-conflict', 'fail');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('row 1: the code is in use here (--on-conflict fail)');
    expect((await readReport(failed.report)).summary).toMatchObject({
      imported: 0,
      stopped: 'row 1: the code is in use here (--on-conflict fail)',
    });
    expect(await rowsOf(failer)).toEqual([]);
  });

  it('refuses an unknown owner, a missing file and a malformed CSV', async () => {
    const unknown = await runAdmin(ctx.env, [
      'links',
      'import',
      path.join(FIXTURES, 'links.csv'),
      '--from',
      'csv',
      '--owner',
      '999999',
    ]);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'error: No API key with id 999999.\n']);

    const owner = await newKey();
    const missing = await importCsv(owner, path.join(dir, 'nope.csv'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: Cannot open the source: ENOENT/);

    const broken = path.join(dir, 'broken.csv');
    await writeFile(broken, 'url,code\nhttps://example.com/a,a-ok\n"https://example.com/b,b-broken\n');
    const result = await importCsv(owner, broken);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Stopped: the source failed: .*Quote Not Closed/);
    expect((await readReport(result.report)).summary).toMatchObject({
      stopped: expect.stringMatching(/Quote Not Closed/),
    });

    const usage = await runAdmin(ctx.env, ['links', 'import', broken, '--from', 'nope', '--owner', String(owner)]);
    expect(usage.code).toBe(2);
  });
});
