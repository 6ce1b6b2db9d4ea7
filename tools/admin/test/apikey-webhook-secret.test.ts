import { randomBytes } from 'node:crypto';
import { ApiKeyRepository, authDatabase, parseSecretsKey, WebhookSecretService } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './run-admin.js';

let ctx: TestContext;
let env: Record<string, string>;
let dataSource: DataSource;
let secrets: WebhookSecretService;
let keyId: number;

beforeAll(async () => {
  ctx = await createTestContext('adminhook');
  const secretsKey = randomBytes(32).toString('hex');
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
    expect(result.lastLine).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
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

  it('fails with exit 1 for an id that does not exist', async () => {
    const result = await runAdmin(env, ['apikey', 'webhook-secret', '999999']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No API key with id 999999');
  });

  it('refuses to make a secret without PAWLINK_SECRETS_KEY, or with a malformed one', async () => {
    const before = await secrets.current(keyId);
    const missing = await runAdmin({ ...ctx.env, PAWLINK_SECRETS_KEY: '' }, [
      'apikey',
      'webhook-secret',
      String(keyId),
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('PAWLINK_SECRETS_KEY');
    const malformed = await runAdmin({ ...ctx.env, PAWLINK_SECRETS_KEY: 'not-a-key' }, [
      'apikey',
      'webhook-secret',
      String(keyId),
    ]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain('PAWLINK_SECRETS_KEY');
    expect(await secrets.current(keyId)).toBe(before);
  });
});
