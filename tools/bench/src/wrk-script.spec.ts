import { describe, expect, it } from 'vitest';
import { luaString, wrkScript } from './wrk-script.js';

describe('wrk scripts', () => {
  it('quotes any text as a Lua string', () => {
    expect(luaString('a"b\\c')).toBe('"a\\"b\\\\c"');
    // three-digit escapes, so a digit after a control byte is not read as part of it
    expect(luaString('\n1é')).toBe('"\\0101\\195\\169"');
  });

  it('formats every request once and cycles through them', () => {
    const script = wrkScript([
      { path: '/a' },
      { method: 'POST', path: '/create', headers: { Authorization: 'k' }, body: '{"url":"x"}' },
    ]);
    expect(script).toContain('{"GET","/a",nil,nil}');
    expect(script).toContain('{"POST","/create",{["Authorization"]="k"},"{\\"url\\":\\"x\\"}"}');
    expect(script).toContain('i = i % n + 1');
  });
});
