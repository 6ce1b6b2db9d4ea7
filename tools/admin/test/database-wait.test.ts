import { createTestContext, startTcpProxy, type TcpProxy, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from './run-admin.js';

/*
 * bin/admin opens MySQL as a service does: a connection closed before it is made (HAProxy while
 * its writer fails over: it accepts, then finds no node) is tried again for DB_BOOT_WAIT_MS.
 */

let ctx: TestContext;
let proxy: TcpProxy;

beforeAll(async () => {
  ctx = await createTestContext('admin-db-wait');
  expect((await runAdmin(ctx.env, ['migrate'])).code).toBe(0);
  proxy = await startTcpProxy({ host: ctx.env.DB_HOST ?? '127.0.0.1', port: Number(ctx.env.DB_PORT ?? 3306) });
});

afterAll(async () => {
  await proxy.close();
  await ctx.cleanup();
});

describe('bin/admin and a database that closes its connections', () => {
  it('tries again while the connections are cut, and runs the command once they are not', async () => {
    proxy.cut();
    const result = await runAdmin(
      { ...ctx.env, DB_PORT: String(proxy.port), DB_BOOT_WAIT_MS: '60000' },
      ['apikey', 'list'],
      '/',
      (stderr) => {
        if (stderr.includes('database not reachable yet; trying again')) proxy.restore();
      },
    );
    expect(result.stderr).toContain('database not reachable yet; trying again');
    expect(result.stderr).toContain('database reached');
    expect(result.code, result.stderr).toBe(0);
  });

  it('gives up with exit 1 and the reason when DB_BOOT_WAIT_MS is 0', async () => {
    proxy.cut();
    try {
      const result = await runAdmin({ ...ctx.env, DB_PORT: String(proxy.port), DB_BOOT_WAIT_MS: '0' }, [
        'apikey',
        'list',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/Connection lost|closed/i);
      expect(result.stderr).not.toContain('trying again');
    } finally {
      proxy.restore();
    }
  });
});
