import { describe, expect, it } from 'vitest';
import { parseAmount, parseSizeLimit } from './query-values.js';

const codeOf = (fn: () => unknown): number | 'ok' => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code: number }).code;
  }
};

describe('parseSizeLimit', () => {
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
  ])('%j → %j bytes', (input, expected) => {
    expect(parseSizeLimit(input)).toBe(expected);
  });

  it.each([['2.5'], ['abc'], [''], ['-1'], ['1TB'], ['KB'], ['1.KB'], ['1e3'], ['0x10'], [['1KB', '2KB']], [{ a: '1' }]])('%j is 1057', (input) => {
    expect(codeOf(() => parseSizeLimit(input))).toBe(1057);
  });
});

describe('parseAmount', () => {
  it.each([
    [undefined, 1],
    ['1', 1],
    ['5', 5],
    ['3', 3],
  ])('%j → %j', (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
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
  ])('%j → code %j', (input, code) => {
    expect(codeOf(() => parseAmount(input))).toBe(code);
  });
});
