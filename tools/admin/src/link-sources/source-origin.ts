import { createHash } from 'node:crypto';

/** The longest origin stored (`short_url_imports.origin`); longer ones are stored as their hash. */
const ORIGIN_MAX = 255;

/** An origin that fits its column: `text` itself, or `sha256:<hex>` of it when longer. */
export const originOf = (text: string): string =>
  text.length <= ORIGIN_MAX ? text : `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/** The origin of a row without a code: what it holds, so a re-run of the same file finds it again. */
export const codelessOrigin = (...fields: Array<string | null | undefined>): string =>
  `row:${createHash('sha256')
    .update(fields.map((f) => f ?? '').join('\n'), 'utf8')
    .digest('hex')}`;
