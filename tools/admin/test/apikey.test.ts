import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './run-admin.js';

let ctx: TestContext;
let dataSource: DataSource;
let keys: ApiKeyRepository;

beforeAll(async () => {
  ctx = await createTestContext('admin');
  const migrated = await runAdmin(ctx.env, ['migrate']);
  expect(migrated.code).toBe(0);
  dataSource = createDataSource(loadBaseConfig(ctx.env).database, authDatabase);
  await dataSource.initialize();
  keys = new ApiKeyRepository(dataSource);
});

afterAll(async () => {
  await dataSource.destroy();
  await ctx.cleanup();
});

async function createKey(...extra: string[]) {
  const result = await runAdmin(ctx.env, [
    'apikey',
    'create',
    '--name',
    'Tester',
    '--contact',
    'tester@example.com',
    '--flags',
    'shortener,thumbs',
    ...extra,
  ]);
  expect(result.code).toBe(0);
  const record = await keys.findByKey(result.lastLine);
  if (!record) throw new Error(`created key not found: ${result.stdout}`);
  return { key: result.lastLine, record, result };
}

describe('bin/admin migrate', () => {
  it('is idempotent', async () => {
    const again = await runAdmin(ctx.env, ['migrate']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${ctx.dbPrefix}auth: up to date`);
  });
});

describe('bin/admin apikey', () => {
  it('create prints the key alone on the last line and stores it hashed', async () => {
    const { key, record, result } = await createKey('--bulk-limit', '250', '--rate-limit-route', '0');
    expect(key).toMatch(/^pl_[A-Za-z0-9_-]{43}$/);
    expect(record).toMatchObject({
      name: 'Tester',
      contact: 'tester@example.com',
      flags: ['shortener', 'thumbs'],
      bulkLimit: 250,
      rateLimitRoute: 0,
      rateLimitGlobal: null,
      active: true,
      disabled: false,
    });
    expect(record.keyHash).not.toBe(key);
    expect(result.stdout.split('\n').filter((line) => line.includes(key))).toHaveLength(1);
  });

  it('create defaults the bulk limit to 100', async () => {
    const { record } = await createKey();
    expect(record.bulkLimit).toBe(100);
  });

  it.each([[['--flags', '']], [[]]])(
    'creates a key without flags (%j): it only identifies its holder',
    async (flagArgs) => {
      const result = await runAdmin(ctx.env, [
        'apikey',
        'create',
        '--name',
        'Bot',
        '--contact',
        'bot@example.com',
        ...flagArgs,
      ]);
      expect(result.code).toBe(0);
      const record = await keys.findByKey(result.lastLine);
      expect(record).toMatchObject({ name: 'Bot', flags: [], active: true });
      const list = await runAdmin(ctx.env, ['apikey', 'list']);
      expect(list.stdout).toContain(`id=${record!.id} name="Bot" contact="bot@example.com" flags=- `);
    },
  );

  it('creates a key with the admin flag (the queue dashboard)', async () => {
    const result = await runAdmin(ctx.env, [
      'apikey',
      'create',
      '--name',
      'Ops',
      '--contact',
      'ops@example.com',
      '--flags',
      'admin',
    ]);
    expect(result.code).toBe(0);
    expect(await keys.findByKey(result.lastLine)).toMatchObject({ name: 'Ops', flags: ['admin'] });
  });

  it('creates a key limited to SFW image categories (sfw_only)', async () => {
    const result = await runAdmin(ctx.env, [
      'apikey',
      'create',
      '--name',
      'Bot',
      '--contact',
      'bot@example.com',
      '--flags',
      'sfw_only,images_bulk',
    ]);
    expect(result.code).toBe(0);
    expect(await keys.findByKey(result.lastLine)).toMatchObject({ name: 'Bot', flags: ['sfw_only', 'images_bulk'] });
  });

  it('list shows keys but never the key itself', async () => {
    const { key, record } = await createKey();
    const list = await runAdmin(ctx.env, ['apikey', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`id=${record.id} name="Tester"`);
    expect(list.stdout).not.toContain(key);
  });

  it('disable, enable and revoke change the stored key', async () => {
    const { record } = await createKey();
    expect(
      (await runAdmin(ctx.env, ['apikey', 'disable', String(record.id), '--reason', 'too many requests'])).code,
    ).toBe(0);
    expect(await keys.findById(record.id)).toMatchObject({ disabled: true, disabledReason: 'too many requests' });
    expect((await runAdmin(ctx.env, ['apikey', 'enable', String(record.id)])).code).toBe(0);
    expect(await keys.findById(record.id)).toMatchObject({ disabled: false, disabledReason: null });
    expect((await runAdmin(ctx.env, ['apikey', 'revoke', String(record.id)])).code).toBe(0);
    expect(await keys.findById(record.id)).toMatchObject({ active: false });
  });

  it('fails with exit 1 for an id that does not exist', async () => {
    const result = await runAdmin(ctx.env, ['apikey', 'disable', '999999', '--reason', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No API key with id 999999');
  });

  it.each([
    // `admin` is a flag now (the queue dashboard); an unknown one is still refused.
    [['apikey', 'create', '--name', 'x', '--contact', 'c', '--flags', 'shortener,superuser']],
    [['apikey', 'create', '--name', '', '--contact', 'c', '--flags', 'thumbs']],
    [['apikey', 'create', '--name', 'x', '--contact', 'c', '--flags', 'thumbs', '--bulk-limit', 'many']],
    [['apikey', 'create', '--name', 'x', '--contact', 'c', '--flags', 'thumbs', '--bulk-limit', '0']],
    [['apikey', 'create', '--name', 'x', '--contact', 'c', '--flags', 'thumbs', '--colour', 'red']],
    [['apikey', 'disable', 'abc', '--reason', 'x']],
    [['apikey', 'disable', '1']],
    [['apikey', 'enable']],
    [['apikey', 'revoke', '1', '2']],
    [['apikey', 'rotate', '1']],
    [['apikey']],
    [['frobnicate']],
    [[]],
  ])('rejects bad usage %j with exit 2 and a message', async (args) => {
    const result = await runAdmin(ctx.env, args);
    expect(result.code).toBe(2);
    expect(result.stderr.length).toBeGreaterThan(0);
  });

  it('rejects a bad configuration value with exit 2 naming the variable', async () => {
    const result = await runAdmin({ ...ctx.env, DB_PORT: 'nope' }, ['apikey', 'list']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DB_PORT');
  });
});
