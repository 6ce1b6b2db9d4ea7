import type { AccessGuards } from '@pawlink/auth';
import { onlyMethods, requireParsedBody, requireWritable, validate, type ReadOnlySwitch } from '@pawlink/service-kit';
import type { Express } from 'express';
import { deleteShortUrlHandler } from '../handlers/delete-short-url.handler.js';
import type { DeleteShortUrlService } from '../services/delete-short-url.service.js';
import { deleteShortUrlAliasValidation, deleteShortUrlValidation } from '../validation/delete-short-url.validation.js';

export interface DeleteShortUrlRouteDeps {
  deleteShortUrl: DeleteShortUrlService;
  guards: AccessGuards;
  readOnly: ReadOnlySwitch;
}

/**
 * DELETE /:code and its compatibility alias POST /delete (docs/api.md): key → rate limit →
 * read-only → body → validation → handler; other methods on `/delete` 405.
 */
export function registerDeleteShortUrlRoute(
  app: Express,
  { deleteShortUrl, guards, readOnly }: DeleteShortUrlRouteDeps,
): void {
  const guarded = [
    guards.requireKey('shortener'),
    guards.rateLimit('shortener.manage'),
    requireWritable(readOnly),
    requireParsedBody,
  ];
  const handler = deleteShortUrlHandler(deleteShortUrl);
  app.post('/delete', ...guarded, validate(...deleteShortUrlAliasValidation), handler);
  app.all('/delete', onlyMethods('POST'));
  app.delete('/:code', ...guarded, validate(...deleteShortUrlValidation), handler);
}
