import { ApiError } from '@pawlink/service-kit';

/** A place in one owner's list, newest first: the entry a page starts after. */
export interface OwnerPosition {
  createdAt: Date;
  pos: number;
}

/** What a cursor says once decoded: `<createdAt ms>.<pos>`, both plain decimal without leading zeros. */
const POSITION = /^(0|[1-9][0-9]{0,14})\.([1-9][0-9]{0,9})$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,64}$/;
/** Largest ms a Date holds; `pos` is an INT UNSIGNED. */
const MAX_DATE_MS = 8.64e15;
const MAX_POS = 4_294_967_295;

/**
 * The `next` cursor of `GET /links`: the last entry of a page as base64url(`<createdAt ms>.<pos>`).
 * Opaque to clients; it carries no owner (the presenting key decides whose entries are listed).
 */
export function encodeLinksCursor(position: OwnerPosition): string {
  return Buffer.from(`${position.createdAt.getTime()}.${position.pos}`, 'utf8').toString('base64url');
}

/**
 * The position a cursor names; a cursor this service did not make (altered, truncated, padded,
 * re-encoded) is 400 1057. Only the canonical encoding of a position is accepted, so every
 * position has exactly one cursor.
 */
export function decodeLinksCursor(cursor: string): OwnerPosition {
  const invalid = (): ApiError =>
    new ApiError('INVALID_QUERY_VALUE', {
      message: 'Invalid cursor: pass the `next` value of the previous page unchanged.',
    });
  if (!BASE64URL.test(cursor)) throw invalid();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = POSITION.exec(text);
  if (!match) throw invalid();
  const ms = Number(match[1]);
  const pos = Number(match[2]);
  if (ms > MAX_DATE_MS || pos > MAX_POS) throw invalid();
  const position = { createdAt: new Date(ms), pos };
  if (encodeLinksCursor(position) !== cursor) throw invalid();
  return position;
}
