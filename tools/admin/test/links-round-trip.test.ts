import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport } from './link-import-helpers.js';
import { runAdmin } from './run-admin.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/links/', import.meta.url));

/** Two systems with their own databases: links move from the first to the second. */
let from: TestContext;
let to: TestContext;
let dir: string;

beforeAll(async () => {
  [from, to] = await Promise.all([createTestContext('links-from'), createTestContext('links-to')]);
  for (const ctx of [from, to]) expect((await runAdmin(ctx.env, ['migrate'])).code).toBe(0);
  dir = await mkdtemp(path.join(os.tmpdir(), 'links-round-trip-'));
});

afterAll(async () => {
  await Promise.all([from.cleanup(), to.cleanup()]);
});

async function newKey(ctx: TestContext): Promise<number> {
  const auth = createDataSource(loadBaseConfig(ctx.env).database, authDatabase);
  await auth.initialize();
  try {
    return (await new ApiKeyRepository(auth).create({ name: 'Move', contact: 'move@example.com', flags: [] })).record
      .id;
  } finally {
    await auth.destroy();
  }
}

describe('bin/admin links export → links import --from csv', { timeout: 180_000 }, () => {
  it('imports an export back unchanged into another system, whose export is the same bytes', async () => {
    const first = await newKey(from);
    expect(
      (
        await runAdmin(from.env, [
          'links',
          'import',
          path.join(FIXTURES, 'links.csv'),
          '--from',
          'csv',
          '--owner',
          String(first),
          '--report',
          path.join(dir, 'a.jsonl'),
        ])
      ).code,
    ).toBe(0);
    const exported = path.join(dir, 'exported.csv');
    const out = await runAdmin(from.env, ['links', 'export', '--owner', String(first), '--out', exported]);
    expect([out.code, out.lastLine]).toEqual([0, `Exported 4 links to ${exported}.`]);
    const text = await readFile(exported, 'utf8');
    expect(text.split('\r\n')[0]).toBe('url,code,credit,createdAt,tags,expiresAt,maxVisits,visits');
    expect(text).toContain(
      '"https://example.com/search?q=a,b&x=1",quoted-comma,"Smith, Jane",2021-03-04T05:06:07.000Z,news|tech,,,12\r\n',
    );

    const second = await newKey(to);
    const report = path.join(dir, 'b.jsonl');
    const imported = await runAdmin(to.env, [
      'links',
      'import',
      exported,
      '--from',
      'csv',
      '--owner',
      String(second),
      '--report',
      report,
    ]);
    expect(imported.code).toBe(0);
    expect((await readReport(report)).summary).toMatchObject({ imported: 4, renamed: 0, skipped: 0, refused: 0 });
    const again = await runAdmin(to.env, ['links', 'export', '--owner', String(second)]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(text);

    const ndjson = await runAdmin(to.env, [
      'links',
      'export',
      '--owner',
      String(second),
      '--format',
      'ndjson',
      '--include',
      'days',
    ]);
    const records = ndjson.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { code: string; visits: number; days: object });
    expect(records.map((r) => [r.code, r.visits, r.days])).toEqual([
      [expect.any(String), 0, {}],
      ['quoted-comma', 12, {}],
      ['multi-line', 7, {}],
      ['quote', 5, {}],
    ]);

    const unknown = await runAdmin(to.env, ['links', 'export', '--owner', '999999']);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'error: No API key with id 999999.\n']);
  });
});
