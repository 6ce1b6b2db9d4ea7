import { BULK_CREATE_MAX_LINKS, Errors } from '@pawlink/contracts';
import { fail, runValidation } from '@pawlink/service-kit';
import { body } from 'express-validator';
import type { Request } from 'express';
import type { BulkCreateItem } from '../services/bulk-create-short-urls.service.js';
import { createShortUrlBodyValidation, editable, type CreateShortUrlInput } from './create-short-url.validation.js';

export interface BulkCreateShortUrlsInput {
  editable: boolean;
  /** 1–100 values, each still to be checked as one create (`bulkCreateItem`). */
  links: unknown[];
}

/**
 * POST /create/bulk `[?editable=false]` {links: [...]}: `editable` as on POST /create (1057), then
 * the list itself (400 1084: `links` missing, not an array, empty or over 100). Each item is
 * checked afterwards on its own (`bulkCreateItem`), so one bad item fails only itself.
 */
export const bulkCreateShortUrlsValidation = [
  editable(),
  body('links')
    .custom((value: unknown) => Array.isArray(value) && value.length >= 1 && value.length <= BULK_CREATE_MAX_LINKS)
    .withMessage(
      fail(
        'BULK_CREATE_INVALID',
        `Invalid bulk create: the body must be {links: [...]} with 1 to ${BULK_CREATE_MAX_LINKS} items.`,
      ),
    ),
];

/** How many units of the create bucket a validated bulk request takes: one per item. */
export const bulkCreateUnits = (req: Request): number => ((req.body as { links: unknown[] }).links ?? []).length;

const itemChains = createShortUrlBodyValidation('an item of POST /create/bulk');

/**
 * One item of a bulk create, checked by the chains of POST /create's body (so it fails with the
 * same code and message a create would), on the request's own settings (`app.locals`) and headers;
 * an item that is not an object is 1084.
 */
export async function bulkCreateItem(item: unknown, index: number, req: Request): Promise<BulkCreateItem> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return {
      ok: false,
      code: Errors.BULK_CREATE_INVALID.code,
      error: `Item ${index} of links is not an object: expected {url, code?, credit?, expiresAt?, maxVisits?}.`,
    };
  }
  const request = { body: item, headers: req.headers, app: req.app } as Parameters<typeof runValidation>[1];
  const outcome = await runValidation<Omit<CreateShortUrlInput, 'editable'>>(itemChains, request);
  if (outcome.ok) return { ok: true, input: outcome.input };
  // A chain that names no contract code is a bug in it: the request fails as POST /create would (500).
  if (outcome.code === undefined) throw new Error(outcome.message);
  return { ok: false, code: outcome.code, error: outcome.message };
}
