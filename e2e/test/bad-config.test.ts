import { spawnNode } from '@pawlink/test-kit';
import { describe, expect, it } from 'vitest';

/** A bad configuration value stops each real process with a message naming the variable. */
describe.each([
  ['apps/shortener/dist/main.js', 'SHORTENER_PORT', 'not-a-port'],
  ['apps/images/dist/main.js', 'DB_TYPE', 'postgres'],
  ['apps/thumbs/dist/main.js', 'THUMBS_URL', 'ftp://nope'],
  ['apps/thumbs-worker/dist/main.js', 'WORKER_CONCURRENCY', 'lots'],
])('%s', (script, variable, value) => {
  it(`exits non-zero naming ${variable}`, async () => {
    const proc = spawnNode(script, script, {
      [variable]: value,
      REDIS_URL: 'redis://127.0.0.1:6379',
      DB_PREFIX: 't_badconfig_',
    });
    const { code } = await proc.exited;
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(proc.tail()).toContain(variable);
  });
});
