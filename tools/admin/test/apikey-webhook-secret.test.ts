import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiKeyRepository, authDatabase, parseSecretsKey, WebhookSecretService } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { ADMIN, runAdmin } from './run-admin.js';

let ctx: TestContext;
let env: Record<string, string>;
let dataSource: DataSource;
let secrets: WebhookSecretService;
let keyId: number;
let secretsKey: string;
/** An empty directory: PAWLINK_DATA_DIR for the runs that must find no secrets key file. */
let emptyDataDir: string;
const dirs: string[] = [];

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pawlink-admin-${label}-`));
  dirs.push(dir);
  return dir;
}

/** A directory laid out as `npm start` leaves a data directory: keys/secrets.key, mode 600. */
async function dataDirWithSecretsKey(dir: string, key: string): Promise<void> {
  await mkdir(path.join(dir, 'keys'), { recursive: true, mode: 0o700 });
  await writeFile(path.join(dir, 'keys', 'secrets.key'), key, { mode: 0o600 });
}

beforeAll(async () => {
  ctx = await createTestContext('adminhook');
  secretsKey = randomBytes(32).toString('hex');
  emptyDataDir = await tempDir('empty');
  env = { ...ctx.env, PAWLINK_SECRETS_KEY: secretsKey };
  expect((await runAdmin(env, ['migrate'])).code).toBe(0);
  dataSource = createDataSource(loadBaseConfig(env).database, authDatabase);
  await dataSource.initialize();
  const keys = new ApiKeyRepository(dataSource);
  keyId = (await keys.create({ name: 'Bot', contact: 'bot@example.com', flags: ['thumbs'] })).record.id;
  // What the delivering worker reads the secret with.
  secrets = new WebhookSecretService({ keys, secretsKey: parseSecretsKey(secretsKey) });
});

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  await dataSource?.destroy();
  await ctx?.cleanup();
});

/** Everything the database holds about the key, as a dump would show it. */
async function rowDump(id: number): Promise<string> {
  const rows: unknown[] = await dataSource.query('SELECT * FROM api_keys WHERE id = ?', [id]);
  return JSON.stringify(rows);
}

describe('bin/admin apikey webhook-secret', () => {
  it('makes a secret, prints it once alone on the last line, and the worker reads that one', async () => {
    const result = await runAdmin(env, ['apikey', 'webhook-secret', String(keyId)]);
    expect(result.code).toBe(0);
    // The Standard Webhooks form (issue 41): whsec_ and the base64 of 32 bytes.
    expect(result.lastLine).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(result.stdout.split('\n').filter((line) => line.includes(result.lastLine))).toHaveLength(1);
    expect(await secrets.current(keyId)).toBe(result.lastLine);
  });

  it('rotates: the old secret no longer signs anything, and no dump of the row shows either in clear', async () => {
    const old = (await runAdmin(env, ['apikey', 'webhook-secret', String(keyId)])).lastLine;
    const rotated = await runAdmin(env, ['apikey', 'webhook-secret', String(keyId)]);
    expect(rotated.code).toBe(0);
    expect(rotated.lastLine).not.toBe(old);
    expect(await secrets.current(keyId)).toBe(rotated.lastLine);
    const dump = await rowDump(keyId);
    expect(dump).toContain('webhook_secret_sealed');
    for (const secret of [old, rotated.lastLine]) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice('whsec_'.length));
    }
  });

  it('--keep-previous-hours keeps the replaced secret signing beside the new one, sealed too', async () => {
    const old = (await runAdmin(env, ['apikey', 'webhook-secret', String(keyId)])).lastLine;
    const rotated = await runAdmin(env, ['apikey', 'webhook-secret', String(keyId), '--keep-previous-hours', '24']);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain('for 24 hours');
    expect(await secrets.signing(keyId)).toEqual({ current: rotated.lastLine, previous: [old] });
    const [row] = await dataSource.query<Array<{ minutes: number | string }>>(
      'SELECT TIMESTAMPDIFF(MINUTE, UTC_TIMESTAMP(3), webhook_secret_previous_until) AS minutes FROM api_keys WHERE id = ?',
      [keyId],
    );
    expect(Number(row!.minutes)).toBeGreaterThanOrEqual(23 * 60);
    expect(Number(row!.minutes)).toBeLessThanOrEqual(24 * 60);
    const dump = await rowDump(keyId);
    for (const secret of [old, rotated.lastLine]) expect(dump).not.toContain(secret.slice('whsec_'.length));
    // The next rotation without the option drops it.
    const next = await runAdmin(env, ['apikey', 'webhook-secret', String(keyId)]);
    expect(await secrets.signing(keyId)).toEqual({ current: next.lastLine, previous: [] });
  });

  it('refuses --keep-previous-hours beyond a week or below one hour, changing nothing', async () => {
    const before = await secrets.current(keyId);
    for (const hours of ['169', '0', 'x']) {
      const result = await runAdmin(env, ['apikey', 'webhook-secret', String(keyId), '--keep-previous-hours', hours]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('--keep-previous-hours');
    }
    expect(await secrets.current(keyId)).toBe(before);
  });

  it('fails with exit 1 for an id that does not exist', async () => {
    const result = await runAdmin(env, ['apikey', 'webhook-secret', '999999']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No API key with id 999999');
  });

  it('refuses to make a secret without PAWLINK_SECRETS_KEY, or with a malformed one', async () => {
    const before = await secrets.current(keyId);
    const missing = await runAdmin({ ...ctx.env, PAWLINK_SECRETS_KEY: '', PAWLINK_DATA_DIR: emptyDataDir }, [
      'apikey',
      'webhook-secret',
      String(keyId),
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('PAWLINK_SECRETS_KEY');
    // It names the file npm start would have kept the key in, too.
    expect(missing.stderr).toContain(path.join(emptyDataDir, 'keys', 'secrets.key'));
    const malformed = await runAdmin({ ...ctx.env, PAWLINK_SECRETS_KEY: 'not-a-key' }, [
      'apikey',
      'webhook-secret',
      String(keyId),
    ]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain('PAWLINK_SECRETS_KEY');
    expect(await secrets.current(keyId)).toBe(before);
  });

  it('uses the key npm start keeps in the data directory when PAWLINK_SECRETS_KEY is not set', async () => {
    const dataDir = await tempDir('data');
    await dataDirWithSecretsKey(dataDir, `${secretsKey}\n`);
    const result = await runAdmin({ ...ctx.env, PAWLINK_SECRETS_KEY: '', PAWLINK_DATA_DIR: dataDir }, [
      'apikey',
      'webhook-secret',
      String(keyId),
    ]);
    expect(result.code).toBe(0);
    expect(await secrets.current(keyId)).toBe(result.lastLine);
  });

  it('in a checkout with no PAWLINK_DATA_DIR, finds data/keys/secrets.key and the .env npm start reads', async () => {
    // A checkout of its own (PAWLINK_ROOT): its .env names this test's databases, as a developer's does.
    const root = await tempDir('checkout');
    await dataDirWithSecretsKey(path.join(root, 'data'), secretsKey);
    const dotEnv = Object.entries(ctx.env)
      .filter(([name]) => name.startsWith('DB_') || name.startsWith('REDIS_'))
      .map(([name, value]) => `${name}=${value}`);
    await writeFile(path.join(root, '.env'), `${dotEnv.join('\n')}\n`);
    const environment = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.homedir(), PAWLINK_ROOT: root };
    const result = await new Promise<{ code: number; lastLine: string; stderr: string }>((resolve) => {
      execFile(
        ADMIN,
        ['apikey', 'webhook-secret', String(keyId)],
        { env: environment, cwd: '/' },
        (error, stdout, stderr) => {
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
            lastLine: stdout.trim().split('\n').at(-1) ?? '',
            stderr,
          });
        },
      );
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await secrets.current(keyId)).toBe(result.lastLine);
  });
});
