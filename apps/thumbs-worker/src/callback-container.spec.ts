import type { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { lazyWebhookSecretStore } from './callback-container.js';

describe('lazyWebhookSecretStore', () => {
  it('opens the database at the first read, not before, and tries again after a failed open', async () => {
    let opens = 0;
    const store = lazyWebhookSecretStore(() => {
      opens += 1;
      return opens === 1 ? Promise.reject(new Error('database down')) : Promise.resolve(fakeDataSource('v1.sealed'));
    });
    expect(opens).toBe(0);
    await expect(store.webhookSecretsSealedOf(1)).rejects.toThrow('database down');
    const secrets = { current: 'v1.sealed', previous: null, previousUntil: null };
    expect(await store.webhookSecretsSealedOf(1)).toEqual(secrets);
    expect(await store.webhookSecretsSealedOf(2)).toEqual(secrets);
    expect(opens).toBe(2);
    await store.close();
  });
});

/** A DataSource whose one query answers a key row holding `sealed`. */
function fakeDataSource(sealed: string): DataSource {
  const builder = {
    select: () => builder,
    addSelect: () => builder,
    where: () => builder,
    getOne: () => Promise.resolve({ id: 1, webhookSecretSealed: sealed }),
  };
  return {
    getRepository: () => ({ createQueryBuilder: () => builder }),
    isInitialized: false,
  } as unknown as DataSource;
}
