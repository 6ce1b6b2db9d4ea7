import { describe, expect, it } from 'vitest';
import { hasPlainQuery, queryShapeError, queryShapeFault } from './query-shape.js';

describe('query shape', () => {
  it('takes plain parameters, each once, whatever their values', () => {
    for (const search of [
      '',
      'a=1',
      'a=1&b=2',
      'a',
      'a=&b=',
      'q=%5B1%5D',
      'url=https%3A%2F%2Fx%2F%3Fa%3D1%26a%3D2',
      '&&a=1',
    ])
      expect(queryShapeFault(search), search).toBeUndefined();
  });

  it('refuses a bracketed parameter, also percent-encoded, naming it without its brackets', () => {
    expect(queryShapeFault('editable[]=false')).toEqual({ name: 'editable', shape: 'bracketed' });
    expect(queryShapeFault('size[x]=100')).toEqual({ name: 'size', shape: 'bracketed' });
    expect(queryShapeFault('a=1&cursor%5B%5D=x')).toEqual({ name: 'cursor', shape: 'bracketed' });
    expect(queryShapeFault('[]=1')).toEqual({ name: '[]', shape: 'bracketed' });
  });

  it('refuses a repeated parameter unless it is a declared list', () => {
    expect(queryShapeFault('limit=1&limit=2')).toEqual({ name: 'limit', shape: 'repeated' });
    expect(queryShapeFault('a&a')).toEqual({ name: 'a', shape: 'repeated' });
    expect(queryShapeFault('tag=a&tag=b', new Set(['tag']))).toBeUndefined();
    expect(queryShapeFault('tag=a&tag=b&q=1&q=2', new Set(['tag']))).toEqual({ name: 'q', shape: 'repeated' });
  });

  it('answers 400 1057 naming the parameter, and 422 1085 for callbackURL', () => {
    const invalid = queryShapeError({ name: 'format', shape: 'bracketed' });
    expect([invalid.httpStatus, invalid.code]).toEqual([400, 1057]);
    expect(invalid.message).toContain('format');
    const callback = queryShapeError({ name: 'callbackURL', shape: 'repeated' });
    expect([callback.httpStatus, callback.code]).toEqual([422, 1085]);
  });

  it('tells a plain request target from one the lane before Express leaves to Express', () => {
    expect(hasPlainQuery('/abc')).toBe(true);
    expect(hasPlainQuery('/abc?utm_source=x')).toBe(true);
    expect(hasPlainQuery('/abc?x[]=1')).toBe(false);
    expect(hasPlainQuery('/abc?x=1&x=2')).toBe(false);
  });
});
