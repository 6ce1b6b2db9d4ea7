import { describe, expect, it } from 'vitest';
import { editableEntry, expectCode, NOW } from '../../test/short-url-service-fakes.js';

describe('UpdateShortUrlService', () => {
  it('refuses unknown codes (1075), entries without a management code (1077) and wrong codes (1078)', async () => {
    const { create, update, code } = await editableEntry();
    await expectCode(update.update('nope', { managementCode: 'x', credit: 'y' }), 1075);
    const fixed = await create.create({ url: 'https://example.com/fixed', editable: false });
    await expectCode(update.update(fixed.record.code, { managementCode: 'x', credit: 'y' }), 1077);
    await expectCode(update.update(code, { managementCode: 'not-it', credit: 'y' }), 1078);
  });

  it('answers 1080 when nothing would change', async () => {
    const { update, code, managementCode } = await editableEntry();
    await expectCode(update.update(code, { managementCode }), 1080);
    await expectCode(update.update(code, { managementCode, url: 'https://example.com/h', credit: 'Fox' }), 1080);
  });

  it('moves the destination: modifiedAt and urlChangedAt set, every instance told', async () => {
    const { update, repository, cache, code, managementCode } = await editableEntry();
    const record = await update.update(code, { managementCode, url: 'https://example.com/new' });
    expect(record).toMatchObject({ url: 'https://example.com/new', modifiedAt: NOW.toISOString() });
    expect(repository.rows[0]).toMatchObject({ urlChangedAt: NOW });
    expect(cache.calls).toEqual([`drop preview ${code}`, `edited ${code}`]);
  });

  it('changes only the credit: no destination notice, announced as a credit change (the redirect stays cached)', async () => {
    const { update, repository, cache, code, managementCode } = await editableEntry();
    await update.update(code, { managementCode, credit: 'Wolf' });
    expect(repository.rows[0]).toMatchObject({ credit: 'Wolf', urlChangedAt: null, modifiedAt: NOW });
    expect(cache.calls).toEqual([`drop preview ${code}`, `credited ${code}`]);
  });
});
