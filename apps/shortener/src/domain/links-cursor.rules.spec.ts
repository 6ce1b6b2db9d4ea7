import { describe, expect, it } from 'vitest';
import { decodeLinksCursor, encodeLinksCursor } from './links-cursor.rules.js';

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

describe('GET /links cursors', () => {
  it('round-trips a position, milliseconds included, as base64url of "<ms>.<pos>"', () => {
    const position = { createdAt: new Date('2026-11-25T19:30:00.123Z'), pos: 4711 };
    const cursor = encodeLinksCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cursor, 'base64url').toString()).toBe(`${position.createdAt.getTime()}.4711`);
    expect(decodeLinksCursor(cursor)).toEqual(position);
    expect(decodeLinksCursor(encodeLinksCursor({ createdAt: new Date(0), pos: 1 }))).toEqual({
      createdAt: new Date(0),
      pos: 1,
    });
  });

  const refused: Array<[string, string]> = [
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['padded', `${b64('1700000000000.5')}=`],
    ['not a position', b64('hello')],
    ['pos 0', b64('1700000000000.0')],
    ['negative', b64('-1.5')],
    ['leading zeros', b64('01700000000000.5')],
    ['a fraction', b64('1700000000000.5.1')],
    ['spaces', b64(' 1700000000000.5')],
    ['beyond a Date', b64('8640000000000001.5')],
    ['beyond an unsigned int', b64('1700000000000.4294967296')],
    ['too long', 'A'.repeat(65)],
  ];
  for (const [name, cursor] of refused) {
    it(`refuses a cursor ${name} with 1057`, () => {
      expect(() => decodeLinksCursor(cursor)).toThrow(expect.objectContaining({ code: 1057, httpStatus: 400 }));
    });
  }

  it('refuses a cursor whose last character was changed into one of the same decoding (not canonical)', () => {
    const cursor = encodeLinksCursor({ createdAt: new Date(1_700_000_000_000), pos: 12 });
    // base64url's last character carries spare bits: a changed spare bit decodes the same, and is still refused.
    const last = cursor.at(-1)!;
    const twin = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].find(
      (c) => c !== last && Buffer.from(cursor.slice(0, -1) + c, 'base64url').equals(Buffer.from(cursor, 'base64url')),
    );
    if (twin !== undefined)
      expect(() => decodeLinksCursor(cursor.slice(0, -1) + twin)).toThrow(expect.objectContaining({ code: 1057 }));
    expect(decodeLinksCursor(cursor)).toEqual({ createdAt: new Date(1_700_000_000_000), pos: 12 });
  });
});
