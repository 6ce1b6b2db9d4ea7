import { hashManagementCode } from '@pawlink/auth';
import { describe, expect, it } from 'vitest';
import { expectCode, MemoryShortUrls, setup } from '../../test/short-url-service-fakes.js';

describe('CreateShortUrlService', () => {
  it('makes an editable entry with a management code stored only as its hash, and warms the cache', async () => {
    const { repository, cache, create } = setup();
    const result = await create.create({ url: 'https://example.com/a', editable: true });
    expect(result).toMatchObject({
      created: true,
      record: {
        url: 'https://example.com/a',
        credit: 'Unknown',
        pos: 1,
        fullURL: `https://pawl.ink/${result.record.code}`,
      },
    });
    expect(result.managementCode).toEqual(expect.any(String));
    expect(repository.rows[0]!.managementCodeHash).toBe(hashManagementCode(result.managementCode!));
    expect(cache.calls).toEqual([`put ${result.record.code} https://example.com/a`]);
  });

  it("hands a non-editable create the url's existing non-editable entry, never an editable one", async () => {
    const { create } = setup();
    const editable = await create.create({ url: 'https://example.com/b', editable: true });
    const fixed = await create.create({ url: 'https://example.com/b', editable: false });
    expect(fixed.created).toBe(true);
    expect(fixed.record.code).not.toBe(editable.record.code);
    const again = await create.create({ url: 'https://example.com/b', editable: false, code: 'other' });
    expect(again).toEqual({ created: false, record: fixed.record, managementCode: null });
    const ownAgain = await create.create({ url: 'https://example.com/b', editable: true });
    expect(ownAgain.created).toBe(true);
  });

  it('answers a lost url race with the winner', async () => {
    const { repository, create } = setup();
    const winner = await create.create({ url: 'https://example.com/c', editable: false });
    // As if the winner's insert landed after this create's lookup.
    repository.findSharedByUrl = (() => {
      let first = true;
      const original = MemoryShortUrls.prototype.findSharedByUrl.bind(repository);
      return (url: string) => (first ? ((first = false), Promise.resolve(null)) : original(url));
    })();
    expect(await create.create({ url: 'https://example.com/c', editable: false })).toEqual({
      created: false,
      record: winner.record,
      managementCode: null,
    });
  });

  it('refuses a reserved or taken custom code with 1072', async () => {
    const { create } = setup();
    await expectCode(create.create({ url: 'https://example.com/d', code: 'Create', editable: true }), 1072);
    await create.create({ url: 'https://example.com/d', code: 'mine', editable: true });
    await expectCode(create.create({ url: 'https://example.com/e', code: 'mine', editable: true }), 1072);
  });

  it('draws another random code after a collision or a reserved word', async () => {
    const script = ['taken-1', 'online', 'Fresh123'];
    const { create } = setup({ generateCode: () => script.shift() ?? 'unused' });
    await create.create({ url: 'https://example.com/f', code: 'taken-1', editable: true });
    const result = await create.create({ url: 'https://example.com/g', editable: true });
    expect(result.record.code).toBe('Fresh123');
  });
});
