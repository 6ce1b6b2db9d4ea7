import { chainOf, codeOf, runValidation, type InputOf } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { exclude, pickType, sizeLimit, type pickOptionsQuery } from './pick-options.fields.js';

type PickOptionsInput = InputOf<ReturnType<typeof pickOptionsQuery>>;
// Each field's chain as its endpoints run it (its parser needs no settings).
const typeQuery = chainOf('query', 'type', pickType(), undefined);
const excludeQuery = chainOf('query', 'exclude', exclude(), undefined);
const sizeLimitQuery = chainOf('query', 'sizeLimit', sizeLimit(), undefined);

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
    expect(await runValidation<PickOptionsInput>([typeQuery], { query: { type: input } })).toEqual({
      ok: true,
      input: { type: expected },
    });
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
    expect(
      await runValidation<PickOptionsInput>([excludeQuery], { query: { exclude: `${md5(1)},${upper},${md5(1)}` } }),
    ).toEqual({
      ok: true,
      input: { exclude: [md5(1), upper.toLowerCase()] },
    });
  });

  it('takes up to 100 ids', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => md5(i));
    expect(await runValidation<PickOptionsInput>([excludeQuery], { query: { exclude: hundred.join(',') } })).toEqual({
      ok: true,
      input: { exclude: hundred },
    });
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
    expect(await runValidation([excludeQuery], { query: { exclude: `${md5(1)},nope` } })).toEqual({
      ok: false,
      code: 1057,
      message: 'Invalid exclude: "nope" is not an image id (an MD5).',
    });
    expect(await runValidation([typeQuery], { query: { type: 'tiff' } })).toEqual({
      ok: false,
      code: 1057,
      message: 'Invalid type: "tiff" is not one of gif, png, jpg, webp, animated, still.',
    });
  });
});

describe('sizeLimitQuery', () => {
  it.each([
    ['0', 0],
    ['6', 6],
    ['1048576', 1048576],
    ['1KB', 1024],
    ['1kb', 1024],
    ['512KB', 524288],
    ['1.5mb', 1572864],
    ['2.5MB', 2621440],
    ['1GB', 1073741824],
    ['10B', 10],
    ['0.5kb', 512],
    [' 2 KB ', 2048],
    [undefined, undefined],
  ])('%j → %j bytes', async (input, expected) => {
    const outcome = await runValidation<{ sizeLimit?: number }>([sizeLimitQuery], { query: { sizeLimit: input } });
    expect(outcome).toEqual({ ok: true, input: expected === undefined ? {} : { sizeLimit: expected } });
  });

  it.each([
    ['2.5'],
    ['abc'],
    [''],
    ['-1'],
    ['1TB'],
    ['KB'],
    ['1.KB'],
    ['1e3'],
    ['0x10'],
    [['1KB', '2KB']],
    [{ a: '1' }],
  ])('%j is 1057', async (input) => {
    expect(await codeOf([sizeLimitQuery], { query: { sizeLimit: input } })).toBe(1057);
  });

  it('says what is wrong', async () => {
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: '1TB' } })).toEqual({
      ok: false,
      code: 1057,
      message: 'Invalid sizeLimit: "1TB" is not a byte count or a number with B, KB, MB or GB.',
    });
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: ['1', '2'] } })).toEqual({
      ok: false,
      code: 1057,
      message: 'Invalid sizeLimit: give it once, as bytes or a number with B, KB, MB or GB.',
    });
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: '99999999999GB' } })).toEqual({
      ok: false,
      code: 1057,
      message: 'Invalid sizeLimit: the value is too large.',
    });
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: 'x'.repeat(80) } })).toMatchObject({
      message: `Invalid sizeLimit: "${'x'.repeat(50)}" is not a byte count or a number with B, KB, MB or GB.`,
    });
  });
});
