import { describe, expect, it } from 'vitest';
import { chainsOf, codeOf, runValidation, type InputOf } from '@pawlink/service-kit';
import { loadImagesConfig } from '../config.js';
import { bulkImagesEndpoint } from './bulk-images.endpoint.js';

type BulkImagesInput = InputOf<typeof bulkImagesEndpoint.fields>;
const bulkImagesValidation = chainsOf(bulkImagesEndpoint.fields, loadImagesConfig({}));

describe('bulkImagesValidation', () => {
  it('accepts an object of positive integer counts, in body order', async () => {
    const outcome = await runValidation<BulkImagesInput>(bulkImagesValidation, {
      body: { 'furry.hug': 2, 'animals.birb': 3 },
      query: { sizeLimit: '1KB' },
    });
    expect(outcome).toEqual({
      ok: true,
      input: {
        sizeLimit: 1024,
        '': [
          { db: 'furry.hug', count: 2 },
          { db: 'animals.birb', count: 3 },
        ],
      },
    });
  });

  it.each([
    [[]],
    [['furry.hug']],
    ['furry.hug'],
    [null],
    [undefined],
    [42],
    [{}],
    [{ a: -1 }],
    [{ a: 0 }],
    [{ a: 1.5 }],
    [{ a: '2' }],
    [{ a: null }],
    [{ a: true }],
    [{ a: 1, b: {} }],
  ])('%j is 1054', async (body) => {
    expect(await codeOf(bulkImagesValidation, { body })).toBe(1054);
  });

  it('says what is wrong with the body', async () => {
    expect(await runValidation(bulkImagesValidation, { body: [] })).toEqual({
      ok: false,
      code: 1054,
      message: 'Invalid bulk request body: expected an object of category keys to positive integer counts.',
    });
    expect(await runValidation(bulkImagesValidation, { body: {} })).toEqual({
      ok: false,
      code: 1054,
      message: 'Invalid bulk request body: no categories were given.',
    });
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`c.${i}`, 1]));
    expect(await runValidation(bulkImagesValidation, { body: many })).toEqual({
      ok: false,
      code: 1054,
      message: 'Invalid bulk request body: at most 100 categories per request.',
    });
    expect(
      await runValidation(bulkImagesValidation, { body: { 'furry.hug': 1, 'animals.birb': '2', 'c.d': 0 } }),
    ).toEqual({
      ok: false,
      code: 1054,
      message: 'Invalid bulk request body: the count for "animals.birb" must be a positive integer.',
    });
  });

  it('refuses a form body (no prototype) like any other non-JSON object', async () => {
    const form = Object.assign(Object.create(null) as Record<string, unknown>, { 'furry.hug': 1 });
    expect(await codeOf(bulkImagesValidation, { body: form })).toBe(1054);
  });

  it('reports a bad sizeLimit before the body', async () => {
    expect(await codeOf(bulkImagesValidation, { body: [], query: { sizeLimit: 'huge' } })).toBe(1057);
  });
});
