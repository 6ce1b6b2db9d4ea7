import { codeOf, runValidation } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { excludeQuery, typeQuery, type PickOptionsInput } from './pick-options.validation.js';

const md5 = (n: number): string => n.toString(16).padStart(32, '0');

describe('typeQuery', () => {
  it.each([
    ['gif', 'gif'],
    ['PNG', 'png'],
    ['jpg', 'jpg'],
    ['webp', 'webp'],
    ['Animated', 'animated'],
    ['still', 'still'],
  ])('%j → %j', async (input, expected) => {
    expect(await runValidation<PickOptionsInput>([typeQuery], { query: { type: input } })).toEqual({ ok: true, input: { type: expected } });
  });

  it('stays absent when not given', async () => {
    expect(await runValidation<PickOptionsInput>([typeQuery], { query: {} })).toEqual({ ok: true, input: {} });
  });

  it.each([['jpeg'], ['bmp'], [''], [' gif'], [['gif', 'png']], [{ a: 'gif' }]])('%j is 1057', async (input) => {
    expect(await codeOf([typeQuery], { query: { type: input } })).toBe(1057);
  });
});

describe('excludeQuery', () => {
  it('reads distinct lower-case ids from one comma-separated value', async () => {
    const upper = 'ABCDEF'.repeat(5) + 'AB';
    expect(await runValidation<PickOptionsInput>([excludeQuery], { query: { exclude: `${md5(1)},${upper},${md5(1)}` } })).toEqual({
      ok: true,
      input: { exclude: [md5(1), upper.toLowerCase()] },
    });
  });

  it('takes up to 100 ids', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => md5(i));
    expect(await runValidation<PickOptionsInput>([excludeQuery], { query: { exclude: hundred.join(',') } })).toEqual({ ok: true, input: { exclude: hundred } });
  });

  it.each([
    ['101 ids', Array.from({ length: 101 }, (_, i) => md5(i)).join(',')],
    ['empty', ''],
    ['a trailing comma', `${md5(1)},`],
    ['spaces', `${md5(1)}, ${md5(2)}`],
    ['a short id', md5(1).slice(1)],
    ['not hex', 'g'.repeat(32)],
    ['repeated', [md5(1), md5(2)]],
  ])('%s is 1057', async (_, input) => {
    expect(await codeOf([excludeQuery], { query: { exclude: input } })).toBe(1057);
  });

  it('says what is wrong', async () => {
    expect(await runValidation([excludeQuery], { query: { exclude: `${md5(1)},nope` } })).toEqual({ ok: false, code: 1057, message: 'Invalid exclude: "nope" is not an image id (an MD5).' });
    expect(await runValidation([typeQuery], { query: { type: 'tiff' } })).toEqual({ ok: false, code: 1057, message: 'Invalid type: "tiff" is not one of gif, png, jpg, webp, animated, still.' });
  });
});
