import { describe, expect, it } from 'vitest';
import { setup } from '../../test/short-url-service-fakes.js';

describe('BulkCreateShortUrlsService', () => {
  it('answers each item as a create would, in order, passing validation failures through', async () => {
    const { bulk, repository } = setup();
    const results = await bulk.createAll(
      [
        { ok: true, input: { url: 'https://example.com/1', code: 'one' } },
        { ok: false, code: 1073, error: 'The provided url is invalid.' },
        { ok: true, input: { url: 'https://example.com/2', code: 'one' } },
        { ok: true, input: { url: 'https://example.com/3', code: 'Create' } },
      ],
      { editable: true, ownerKeyId: 5 },
    );
    expect(results.map((r) => (r.success ? r.status : r.code))).toEqual([201, 1073, 1072, 1072]);
    expect(results[0]).toMatchObject({
      success: true,
      status: 201,
      data: { code: 'one', url: 'https://example.com/1', managementCode: expect.any(String) },
    });
    expect(results[1]).toEqual({ success: false, code: 1073, error: 'The provided url is invalid.' });
    expect(results[2]).toEqual({ success: false, code: 1072, error: 'The provided code is already in use.' });
    expect(repository.rows.map((r) => [r.code, r.ownerKeyId])).toEqual([['one', 5]]);
  });

  it('shares a fixed url between two items of one request, as two creates in a row', async () => {
    const { bulk } = setup();
    const results = await bulk.createAll(
      [
        { ok: true, input: { url: 'https://example.com/fixed' } },
        { ok: true, input: { url: 'https://example.com/fixed' } },
      ],
      { editable: false, ownerKeyId: null },
    );
    expect(results.map((r) => r.success && [r.status, r.data.managementCode])).toEqual([
      [201, null],
      [200, null],
    ]);
    const codes = results.map((r) => r.success && r.data.code);
    expect(codes[1]).toBe(codes[0]);
    expect(codes[0]).toEqual(expect.any(String));
  });

  it("fails the whole request on a failure that is not the client's", async () => {
    const { bulk, repository } = setup();
    repository.insert = () => Promise.reject(new Error('connection lost'));
    await expect(
      bulk.createAll([{ ok: true, input: { url: 'https://example.com/x' } }], { editable: true, ownerKeyId: 1 }),
    ).rejects.toThrow('connection lost');
  });
});
