import { CREDIT_NOT_TEXT, DEFAULT_CREDIT, fitsCredit } from '@pawlink/contracts';
import { isReservedCode, isWellFormedCode, normaliseTargetUrl, parseTags } from '@pawlink/shortener';
import type { ImportedLink } from '../link-sources/imported-link.js';

/** What an import does with a link whose code is taken or not valid here. */
export const CONFLICT_RULES = ['skip', 'rename', 'fail'] as const;
export type ConflictRule = (typeof CONFLICT_RULES)[number];

/** A link that passed our checks: its target normalised, its credit and dates settled. */
export interface CheckedLink {
  link: ImportedLink;
  url: string;
  credit: string;
  createdAt: Date;
  /** As the API stores them: lower case, sorted, each once. */
  tags: string[];
  /** The code it asks for, when it is valid here; null when it has none or cannot have it. */
  code: string | null;
  /** Why its code cannot be kept as is (the conflict rule decides); null when it can, or has none. */
  invalidCode: string | null;
}

export type LinkCheck = { ok: true; checked: CheckedLink } | { ok: false; reason: string };

/** Why `code` cannot be a code here, or null when it can. */
export function codeProblem(code: string): string | null {
  if (!isWellFormedCode(code)) return 'the code is not valid here (A-Z, a-z, 0-9 and -, at most 50)';
  if (isReservedCode(code)) return 'the code is reserved here';
  return null;
}

/**
 * The checks the API makes on a create, applied to an imported link: the target through the
 * shortener's own URL-safety rules (a refused target refuses the link, with the API's message),
 * the credit as POST /create checks it (its line breaks folded into spaces), the tags as the API
 * checks them (a link whose tags it would refuse is refused, with the API's message). Past creation and expiry dates are kept (they are history).
 */
export function checkLink(link: ImportedLink, privateTargetPrefixes: readonly string[], now: Date): LinkCheck {
  let url: string;
  try {
    url = normaliseTargetUrl(link.url, privateTargetPrefixes);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  // A credit is one line here; a spreadsheet cell's line breaks (and tabs) become single spaces.
  const credit = (link.credit ?? '').replace(/[\r\n\t]+/g, ' ').trim();
  if (!fitsCredit(credit)) return { ok: false, reason: 'the credit is longer than 50 characters' };
  if (CREDIT_NOT_TEXT.test(credit)) return { ok: false, reason: 'the credit holds control characters' };
  let tags: string[];
  try {
    tags = parseTags(link.tags);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  const invalidCode = link.code === null ? null : codeProblem(link.code);
  return {
    ok: true,
    checked: {
      link,
      url,
      credit: credit === '' ? DEFAULT_CREDIT : credit,
      createdAt: link.createdAt ?? now,
      tags,
      code: invalidCode === null ? link.code : null,
      invalidCode,
    },
  };
}
