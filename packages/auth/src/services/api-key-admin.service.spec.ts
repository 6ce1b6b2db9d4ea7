import { describe, expect, it } from 'vitest';
import type { ApiKey } from '../db/entities/api-key.entity.js';
import type { NewApiKey } from '../repositories/api-key.repository.js';
import { ApiKeyAdminService, type ApiKeyAdminStore } from './api-key-admin.service.js';

/** Keys in memory, with the repository's defaults. */
function memoryStore(): ApiKeyAdminStore & { rows: ApiKey[] } {
  const rows: ApiKey[] = [];
  return {
    rows,
    create(input: NewApiKey) {
      const record: ApiKey = {
        id: rows.length + 1,
        keyHash: 'h',
        name: input.name,
        contact: input.contact,
        flags: input.flags,
        active: true,
        disabled: false,
        disabledReason: null,
        bulkLimit: input.bulkLimit ?? 100,
        rateLimitRoute: input.rateLimitRoute ?? null,
        rateLimitGlobal: input.rateLimitGlobal ?? null,
        createdAt: new Date(),
        lastUsedAt: null,
      };
      rows.push(record);
      return Promise.resolve({ key: `pl_${record.id}`, record });
    },
    list: () => Promise.resolve([...rows]),
    update(id, changes) {
      const row = rows.find((r) => r.id === id);
      if (row) Object.assign(row, changes);
      return Promise.resolve(row !== undefined);
    },
  };
}

describe('ApiKeyAdminService', () => {
  it('creates a key without flags when none are given', async () => {
    const store = memoryStore();
    const { record } = await new ApiKeyAdminService(store).create({ name: 'bot', contact: 'c' });
    expect(record.flags).toEqual([]);
  });

  it('disables with a reason, enables without one, revokes for good', async () => {
    const store = memoryStore();
    const service = new ApiKeyAdminService(store);
    const { record } = await service.create({ name: 'bot', contact: 'c', flags: ['thumbs'] });
    expect(await service.disable(record.id, 'abuse')).toBe(true);
    expect(store.rows[0]).toMatchObject({ disabled: true, disabledReason: 'abuse' });
    expect(await service.enable(record.id)).toBe(true);
    expect(store.rows[0]).toMatchObject({ disabled: false, disabledReason: null });
    expect(await service.revoke(record.id)).toBe(true);
    expect(store.rows[0]).toMatchObject({ active: false });
    expect(await service.revoke(999)).toBe(false);
  });
});
