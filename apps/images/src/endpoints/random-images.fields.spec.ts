import { describe, expect, it } from 'vitest';
import { chainOf, chainsOf, codeOf, runValidation, type InputOf } from '@pawlink/service-kit';
import { loadImagesConfig } from '../config.js';
import { amount } from './images.fields.js';
import { randomImagesEndpoint } from './random-images.endpoint.js';

type RandomImagesInput = InputOf<typeof randomImagesEndpoint.fields>;
const amountQuery = chainOf('query', 'amount', amount(), undefined);
// One declaration serves both paths: `/:category` gives the key as a string, `/*category` the segments.
const randomImagesValidation = chainsOf(randomImagesEndpoint.fields, loadImagesConfig({}));
const randomImagesBySegmentsValidation = randomImagesValidation;

describe('amountQuery', () => {
  it.each([
    [undefined, 1],
    ['1', 1],
    ['5', 5],
    ['3', 3],
  ])('%j → %j', async (input, expected) => {
    expect(await runValidation([amountQuery], { query: { amount: input } })).toEqual({
      ok: true,
      input: { amount: expected },
    });
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
    expect(await runValidation([amountQuery], { query: { amount: 'abc' } })).toEqual({
      ok: false,
      code: 1057,
      message: 'Invalid amount: "abc" is not an integer.',
    });
    expect(await runValidation([amountQuery], { query: { amount: ['1', '2'] } })).toEqual({
      ok: false,
      code: 1057,
      message: 'Invalid amount: give it once, as an integer from 1 to 5.',
    });
    expect(await runValidation([amountQuery], { query: { amount: '0' } })).toEqual({
      ok: false,
      code: 1051,
      message: 'Amount must be at least 1.',
    });
    expect(await runValidation([amountQuery], { query: { amount: '6' } })).toEqual({
      ok: false,
      code: 1052,
      message: 'Amount must be at most 5.',
    });
  });
});

describe('randomImagesValidation', () => {
  it('hands over the category, amount, sizeLimit and notes', async () => {
    const outcome = await runValidation<RandomImagesInput>(randomImagesValidation, {
      params: { category: 'furry.hug' },
      query: { amount: ' 2 ', sizeLimit: '1KB', notes: 'disabled' },
    });
    expect(outcome).toEqual({
      ok: true,
      input: { category: 'furry.hug', amount: 2, sizeLimit: 1024, notes: 'disabled' },
    });
    const defaults = await runValidation<RandomImagesInput>(randomImagesValidation, {
      params: { category: 'furry.hug' },
      query: { notes: ['x', 'disabled'] },
    });
    expect(defaults).toEqual({ ok: true, input: { category: 'furry.hug', amount: 1, notes: 'disabled' } });
    expect(
      await runValidation(randomImagesValidation, { params: { category: 'a' }, query: { notes: 'no' } }),
    ).toMatchObject({ input: { notes: 'enabled' } });
  });

  it('reads one segment holding slashes (`furry%2Fhug`, decoded) as the slashed form', async () => {
    expect(await runValidation(randomImagesValidation, { params: { category: 'furry/hug' } })).toMatchObject({
      ok: true,
      input: { category: 'furry.hug' },
    });
  });

  it.each([['bad key'], ['furry..hug'], ['.furry'], ['furry//hug'], [`furry.${'x'.repeat(100)}`]])(
    'answers 1030 for the key %j, which names no category',
    async (category) => {
      expect(await codeOf(randomImagesValidation, { params: { category } })).toBe(1030);
    },
  );

  it('reports the query values before the category', async () => {
    expect(await codeOf(randomImagesValidation, { params: { category: 'bad key' }, query: { amount: '9' } })).toBe(
      1052,
    );
    expect(await codeOf(randomImagesValidation, { params: { category: 'bad key' }, query: { sizeLimit: 'x' } })).toBe(
      1057,
    );
  });
});

describe('randomImagesBySegmentsValidation', () => {
  it.each([
    [['furry', 'yiff', 'gay'], 'furry.yiff.gay'],
    [['furry', 'hug', ''], 'furry.hug'],
    [['x'], 'x'],
  ])('reads %j as the key %j', async (segments, category) => {
    expect(await runValidation(randomImagesBySegmentsValidation, { params: { category: segments } })).toMatchObject({
      ok: true,
      input: { category },
    });
  });

  it('answers 1030 for empty segments inside the path', async () => {
    expect(await codeOf(randomImagesBySegmentsValidation, { params: { category: ['furry', '', 'hug'] } })).toBe(1030);
  });
});
