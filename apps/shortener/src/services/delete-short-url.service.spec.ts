import { describe, expect, it } from 'vitest';
import { editableEntry, expectCode } from '../../test/short-url-service-fakes.js';

describe('DeleteShortUrlService', () => {
  it('refuses unknown codes (1075), entries without a management code (1077) and wrong codes (1078)', async () => {
    const { create, remove, code } = await editableEntry();
    await expectCode(remove.delete('nope', 'x'), 1075);
    const fixed = await create.create({ url: 'https://example.com/fixed', editable: false });
    await expectCode(remove.delete(fixed.record.code, 'x'), 1077);
    await expectCode(remove.delete(code, 'not-it'), 1078);
  });

  it('deletes and marks the code deleted in the cache', async () => {
    const { remove, repository, cache, code, managementCode } = await editableEntry();
    await remove.delete(code, managementCode);
    expect(repository.rows).toHaveLength(0);
    expect(cache.calls).toEqual([`drop preview ${code}`, `deleted ${code}`, `discard visits ${code}`]);
  });
});
