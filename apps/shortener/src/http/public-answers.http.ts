/*
 * How the public paths answer when they do not redirect or preview: browsers follow them, so the
 * redirect answers in plain text and the preview (and an expired link) with HTML pages under the
 * preview's CSP, never with the JSON failure shape.
 */
import { header, media, type ResponseObject } from '@pawlink/contracts/openapi';
import type { Response } from 'express';
import type { ExpiredLink } from '../domain/short-url-record.rules.js';
import { ApiError } from '@pawlink/service-kit';
import { PASSWORD_FORM_HEADERS, renderPasswordPage } from '../views/password.page.js';
import { PREVIEW_HEADERS, renderExpiredPage, renderLimitedPage, renderNotFoundPage } from '../views/preview.page.js';

export const UNKNOWN_CODE_TEXT = 'Unknown short url code.';

const TEXT_HEADERS = {
  'Content-Type': 'text/plain; charset=utf-8',
  'Cache-Control': 'private, no-cache',
  'X-Robots-Tag': 'noindex',
};

/** The human text of a limited redirect or preview; the contract's code (1000/1001) is in it, the headers carry the rest. */
function limitedText(error: ApiError): string {
  const retryAfter = error.headers['Retry-After'];
  return `${error.message}${retryAfter ? ` Try again in ${retryAfter} seconds.` : ''} (code ${error.code})`;
}

/** The redirect's 404: plain text, for the browser that followed the link. */
export function sendUnknownCode(res: Response): void {
  res.status(404).set(TEXT_HEADERS).send(UNKNOWN_CODE_TEXT);
}

/** The redirect's 429 (lookup limit): plain text like its 404, with the rate-limit headers. */
export function sendRedirectLimited(res: Response, error: ApiError): void {
  res.status(error.httpStatus).set(error.headers).set(TEXT_HEADERS).send(limitedText(error));
}

/** An expired link's 410 (redirect and preview alike): an HTML page under the preview's CSP. */
export function sendExpired(res: Response, expired: ExpiredLink): void {
  res.set(PREVIEW_HEADERS).status(410).send(renderExpiredPage(expired));
}

/**
 * A protected link's password form (`GET /:code` 200; `POST /:code` 401 after a wrong password,
 * saying so, with the code of 1089 in its text), never stored by a cache.
 */
export function sendPasswordForm(res: Response, fullURL: string, wrong = false): void {
  if (!wrong) {
    res.set(PASSWORD_FORM_HEADERS).status(200).send(renderPasswordPage(fullURL));
    return;
  }
  const error = new ApiError('LINK_PASSWORD_WRONG');
  res
    .set(PASSWORD_FORM_HEADERS)
    .status(error.httpStatus)
    .send(renderPasswordPage(fullURL, `${error.message} Try again. (code ${error.code})`));
}

/** Too many wrong passwords from this address for this link (1090): the form's page, saying when to try again. */
export function sendPasswordTriesLimited(res: Response, fullURL: string, retryAfterSeconds: number): void {
  const error = new ApiError('LINK_PASSWORD_TRIES');
  res
    .set(PASSWORD_FORM_HEADERS)
    .set('Retry-After', String(retryAfterSeconds))
    .status(error.httpStatus)
    .send(
      renderPasswordPage(fullURL, `${error.message} Try again in ${retryAfterSeconds} seconds. (code ${error.code})`),
    );
}

/** How the document describes the password form (200, 401 and 429 of a protected link). */
export const passwordFormPage = (description: string, retryAfter = false): ResponseObject =>
  media(description, ['text/html'], {
    'Content-Security-Policy': header('Content-Security-Policy', true),
    'Cache-Control': header('Cache-Control', true),
    ...(retryAfter ? { 'Retry-After': header('Retry-After', true) } : {}),
  });

/** The preview's 404: an HTML page under the same CSP. */
export function sendPreviewNotFound(res: Response): void {
  res.set(PREVIEW_HEADERS).status(404).send(renderNotFoundPage());
}

/** The preview's 429 (lookup limit): an HTML page under the same CSP, with the rate-limit headers. */
export function sendPreviewLimited(res: Response, error: ApiError): void {
  res
    .set(error.headers)
    .set(PREVIEW_HEADERS)
    .status(error.httpStatus)
    .send(renderLimitedPage(limitedText(error)));
}

/** The 429 (lookup limit) of a public path whose other failures are JSON (`GET /:code/qr`): the failure shape, with the rate-limit headers. */
export function sendJsonLimited(res: Response, error: ApiError): void {
  res.status(error.httpStatus).set(error.headers).json(error.toBody());
}

const RATE_LIMIT_TEXT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Reset-After',
  'X-RateLimit-Bucket',
] as const;

/** How the document describes the lookup limit's 429 of the redirect (text) and the preview (a page). */
export function lookupLimited(type: 'text/plain' | 'text/html'): ResponseObject {
  return media(
    `Lookup limit (bucket \`shortener.lookup\`, per client IP; warm redirects and cached previews never count): a ${type === 'text/html' ? 'page' : 'text'} ending with "(code 1000)" or "(code 1001)".`,
    [type],
    {
      ...Object.fromEntries(RATE_LIMIT_TEXT_HEADERS.map((name) => [name, header(name, true)])),
      'Retry-After': header('Retry-After', true),
    },
  );
}

/** How the document describes an expired link's 410 page (`sendExpired`): saying when and why, never the destination. */
export const expiredPage = (): ResponseObject =>
  media(
    "The link expired (`expiresAt` passed or `maxVisits` used up): an HTML page saying when and why, under the preview's CSP.",
    ['text/html'],
    { 'Content-Security-Policy': header('Content-Security-Policy', true) },
  );
