import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, runAdmin } from './run-admin.js';

let ctx: TestContext;
let dataSource: DataSource;
let keys: ApiKeyRepository;
let dir: string;

beforeAll(async () => {
  ctx = await createTestContext('admin-ensure');
  expect((await runAdmin(ctx.env, ['migrate'])).code).toBe(0);
  dataSource = createDataSource(loadBaseConfig(ctx.env).database, authDatabase);
  await dataSource.initialize();
  keys = new ApiKeyRepository(dataSource);
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-admin-ensure-'));
});

afterAll(async () => {
  await dataSource?.destroy();
  await rm(dir, { recursive: true, force: true });
  await ctx?.cleanup();
});

const ensure = (file: string, prefix: string, ...extra: string[]) =>
  runAdmin(ctx.env, [
    'apikey',
    'ensure',
    '--key-file',
    file,
    '--name-prefix',
    prefix,
    '--contact',
    `${prefix}@localhost`,
    ...extra,
  ]);

/** Usable keys whose name starts with `prefix`. */
const usable = async (prefix: string) =>
  (await keys.list()).filter((key) => key.active && !key.disabled && key.name.startsWith(prefix));

// Each case runs the real CLI two to four times (a Node start and a MySQL connection each): on a
// busy machine that alone can take most of the default 30 s.
describe('bin/admin apikey ensure', { timeout: 90_000 }, () => {
  it('creates a key once, stores it (mode 600) and prints the same key on every later run', async () => {
    const file = path.join(dir, 'keys', 'first.key');
    const first = await ensure(file, 'first', '--flags', 'shortener,thumbs');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^Created API key id=\d+ name="first-\d{14}" contact="first@localhost" flags=shortener,thumbs /,
    );
    const record = await keys.findByKey(first.lastLine);
    expect(record).toMatchObject({ active: true, disabled: false, flags: ['shortener', 'thumbs'] });
    expect(await readFile(file, 'utf8')).toBe(`${record!.id} ${first.lastLine}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    for (let run = 0; run < 2; run++) {
      const again = await ensure(file, 'first', '--flags', 'shortener,thumbs');
      expect(again.code, again.stderr).toBe(0);
      expect(again.lastLine).toBe(first.lastLine);
      expect(again.stdout).toMatch(new RegExp(`^Reusing API key id=${record!.id} `));
    }
    expect((await usable('first')).map((key) => key.id)).toEqual([record!.id]);
  });

  it('gives a new key with the options for new keys (limits) and reads the older `<id> <key>` and bare-key files', async () => {
    const file = path.join(dir, 'limits.key');
    const created = await ensure(
      file,
      'limits',
      '--flags',
      'shortener',
      '--rate-limit-route',
      '0',
      '--rate-limit-global',
      '0',
      '--bulk-limit',
      '7',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(await keys.findByKey(created.lastLine)).toMatchObject({
      rateLimitRoute: 0,
      rateLimitGlobal: 0,
      bulkLimit: 7,
    });
    await writeFile(file, `${created.lastLine}\n`);
    expect((await ensure(file, 'limits', '--flags', 'shortener')).lastLine).toBe(created.lastLine);
  });

  it('makes a new key when the stored one was revoked, and leaves the revoked one as it is', async () => {
    const file = path.join(dir, 'revoked.key');
    const first = await ensure(file, 'revoked');
    const old = (await keys.findByKey(first.lastLine))!;
    expect((await runAdmin(ctx.env, ['apikey', 'revoke', String(old.id)])).code).toBe(0);
    const next = await ensure(file, 'revoked');
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain(`Replacing the key in ${file}: API key ${old.id} was revoked.`);
    expect(next.lastLine).not.toBe(first.lastLine);
    expect(await readFile(file, 'utf8')).toContain(next.lastLine);
    expect((await usable('revoked')).map((key) => key.name)).toEqual([expect.stringMatching(/^revoked-/)]);
  });

  it('makes a new key when the stored one is disabled, and does not revoke the disabled one', async () => {
    const file = path.join(dir, 'disabled.key');
    const first = await ensure(file, 'disabled');
    const old = (await keys.findByKey(first.lastLine))!;
    expect((await runAdmin(ctx.env, ['apikey', 'disable', String(old.id), '--reason', 'leaked'])).code).toBe(0);
    const next = await ensure(file, 'disabled');
    expect(next.stdout).toContain(`API key ${old.id} is disabled`);
    expect(next.lastLine).not.toBe(first.lastLine);
    expect(await keys.findById(old.id)).toMatchObject({ active: true, disabled: true });
    expect(await usable('disabled')).toHaveLength(1);
  });

  it('replaces and revokes a stored key that lacks a wanted flag', async () => {
    const file = path.join(dir, 'flags.key');
    const first = await ensure(file, 'flags', '--flags', 'thumbs');
    const old = (await keys.findByKey(first.lastLine))!;
    const next = await ensure(file, 'flags', '--flags', 'thumbs,admin');
    expect(next.stdout).toContain(`API key ${old.id} lacks the flag(s) admin.`);
    expect(next.stdout).toContain(`Revoked API key ${old.id}.`);
    expect(await keys.findById(old.id)).toMatchObject({ active: false });
    expect(await keys.findByKey(next.lastLine)).toMatchObject({ flags: ['thumbs', 'admin'], active: true });
    expect(await usable('flags')).toHaveLength(1);
  });

  it('makes a new key when the file holds a key this database does not know (another DB_PREFIX)', async () => {
    const file = path.join(dir, 'stranger.key');
    await writeFile(file, '1 pl_notAKeyOfThisDatabase0000000000000000000000\n');
    const next = await ensure(file, 'stranger');
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain('no key stored there is known to this database');
    expect(await keys.findByKey(next.lastLine)).toMatchObject({ active: true });
  });

  it('names the other usable keys with the prefix (older starts, other data directories) without touching them', async () => {
    const other = await keys.create({ name: 'shared-20200101000000', contact: 'x', flags: [] });
    const result = await ensure(path.join(dir, 'shared.key'), 'shared');
    expect(result.stdout).toContain(`Other usable keys named shared…: id=${other.record.id} `);
    expect(await keys.findById(other.record.id)).toMatchObject({ active: true, disabled: false });
  });

  it('refuses a missing --key-file or --name-prefix as a usage error (exit 2) and creates nothing', async () => {
    const before = (await keys.list()).length;
    expect((await runAdmin(ctx.env, ['apikey', 'ensure', '--name-prefix', 'x', '--contact', 'y'])).code).toBe(2);
    expect(
      (await runAdmin(ctx.env, ['apikey', 'ensure', '--key-file', path.join(dir, 'x.key'), '--contact', 'y'])).code,
    ).toBe(2);
    expect((await keys.list()).length).toBe(before);
  });
});

/** Runs `script` in bash with pipefail; resolves its stdout, stderr and exit code. */
const bash = (script: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      ['-c', `set -o pipefail\n${script}`],
      { env: { ...process.env, ...ctx.env, ADMIN } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });

describe('bin/admin writing into a pipe whose reader stopped early', { timeout: 90_000 }, () => {
  it('finishes quietly with its own exit status (0) when the reader exits before reading', async () => {
    const result = await bash('"$ADMIN" apikey list | true; echo "admin=${PIPESTATUS[0]}"');
    expect(result.stdout).toBe('admin=0\n');
    expect(result.stderr).toBe('');
  });

  it('does the same when the reader stops after the first line of a long listing (grep -q, head)', async () => {
    for (let i = 0; i < 300; i++)
      await keys.create({ name: `bulk-${i}-${'x'.repeat(60)}`, contact: 'pipe@example.com', flags: [] });
    const grep = await bash('"$ADMIN" apikey list | grep -q "name=\\"bulk-0-"; echo "pipeline=$?"');
    expect(grep.stdout).toBe('pipeline=0\n');
    expect(grep.stderr).toBe('');
    const head = await bash('"$ADMIN" apikey list | head -n 1 >/dev/null; echo "admin=${PIPESTATUS[0]}"');
    expect(head.stdout).toBe('admin=0\n');
    expect(head.stderr).toBe('');
  });

  it('still fails with its own status when the command itself fails', async () => {
    const result = await bash('"$ADMIN" apikey revoke 999999 | true; echo "admin=${PIPESTATUS[0]}"');
    expect(result.stdout).toBe('admin=1\n');
  });
});
