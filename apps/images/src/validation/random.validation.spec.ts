import { describe, expect, it } from 'vitest';
import { codeOf, runValidation } from '@pawlink/service-kit';
import { amountQuery, randomImagesBySegmentsValidation, randomImagesValidation, sizeLimitQuery, type RandomImagesInput } from './random.validation.js';

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

  it.each([['2.5'], ['abc'], [''], ['-1'], ['1TB'], ['KB'], ['1.KB'], ['1e3'], ['0x10'], [['1KB', '2KB']], [{ a: '1' }]])('%j is 1057', async (input) => {
    expect(await codeOf([sizeLimitQuery], { query: { sizeLimit: input } })).toBe(1057);
  });

  it('says what is wrong', async () => {
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: '1TB' } })).toEqual({ ok: false, code: 1057, message: 'Invalid sizeLimit: "1TB" is not a byte count or a number with B, KB, MB or GB.' });
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: ['1', '2'] } })).toEqual({ ok: false, code: 1057, message: 'Invalid sizeLimit: give it once, as bytes or a number with B, KB, MB or GB.' });
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: '99999999999GB' } })).toEqual({ ok: false, code: 1057, message: 'Invalid sizeLimit: the value is too large.' });
    expect(await runValidation([sizeLimitQuery], { query: { sizeLimit: 'x'.repeat(80) } })).toMatchObject({ message: `Invalid sizeLimit: "${'x'.repeat(50)}" is not a byte count or a number with B, KB, MB or GB.` });
  });
});

describe('amountQuery', () => {
  it.each([
    [undefined, 1],
    ['1', 1],
    ['5', 5],
    ['3', 3],
  ])('%j → %j', async (input, expected) => {
    expect(await runValidation([amountQuery], { query: { amount: input } })).toEqual({ ok: true, input: { amount: expected } });
  });

  it.each([
    ['0', 1051],
    ['-1', 1051],
    ['6', 1052],
    ['100', 1052],
    ['2.5', 1057],
    ['abc', 1057],
    ['', 1057],
    ['1KB', 1057],
    [['1', '2'], 1057],
  ])('%j → code %j', async (input, code) => {
    expect(await codeOf([amountQuery], { query: { amount: input } })).toBe(code);
  });

  it('says what is wrong', async () => {
    expect(await runValidation([amountQuery], { query: { amount: 'abc' } })).toEqual({ ok: false, code: 1057, message: 'Invalid amount: "abc" is not an integer.' });
    expect(await runValidation([amountQuery], { query: { amount: ['1', '2'] } })).toEqual({ ok: false, code: 1057, message: 'Invalid amount: give it once, as an integer from 1 to 5.' });
    expect(await runValidation([amountQuery], { query: { amount: '0' } })).toEqual({ ok: false, code: 1051, message: 'Amount must be at least 1.' });
    expect(await runValidation([amountQuery], { query: { amount: '6' } })).toEqual({ ok: false, code: 1052, message: 'Amount must be at most 5.' });
  });
});

describe('randomImagesValidation', () => {
  it('hands over the category, amount, sizeLimit and notes', async () => {
    const outcome = await runValidation<RandomImagesInput>(randomImagesValidation, { params: { category: 'furry.hug' }, query: { amount: ' 2 ', sizeLimit: '1KB', notes: 'disabled' } });
    expect(outcome).toEqual({ ok: true, input: { category: 'furry.hug', amount: 2, sizeLimit: 1024, notes: 'disabled' } });
    const defaults = await runValidation<RandomImagesInput>(randomImagesValidation, { params: { category: 'furry.hug' }, query: { notes: ['x', 'disabled'] } });
    expect(defaults).toEqual({ ok: true, input: { category: 'furry.hug', amount: 1, notes: 'disabled' } });
    expect(await runValidation(randomImagesValidation, { params: { category: 'a' }, query: { notes: 'no' } })).toMatchObject({ input: { notes: 'enabled' } });
  });

  it.each([['bad key'], ['furry..hug'], ['.furry'], ['furry/hug'], [`furry.${'x'.repeat(100)}`]])('answers 1030 for the key %j, which names no category', async (category) => {
    expect(await codeOf(randomImagesValidation, { params: { category } })).toBe(1030);
  });

  it('reports the query values before the category', async () => {
    expect(await codeOf(randomImagesValidation, { params: { category: 'bad key' }, query: { amount: '9' } })).toBe(1052);
    expect(await codeOf(randomImagesValidation, { params: { category: 'bad key' }, query: { sizeLimit: 'x' } })).toBe(1057);
  });
});

describe('randomImagesBySegmentsValidation', () => {
  it.each([
    [['furry', 'yiff', 'gay'], 'furry.yiff.gay'],
    [['furry', 'hug', ''], 'furry.hug'],
    [['x'], 'x'],
  ])('reads %j as the key %j', async (segments, category) => {
    expect(await runValidation(randomImagesBySegmentsValidation, { params: { category: segments } })).toMatchObject({ ok: true, input: { category } });
  });

  it('answers 1030 for empty segments inside the path', async () => {
    expect(await codeOf(randomImagesBySegmentsValidation, { params: { category: ['furry', '', 'hug'] } })).toBe(1030);
  });
});
