import escapeHtml from 'escape-html';
import { page, PASSWORD_FORM_CSP, PREVIEW_HEADERS } from './preview.page.js';

/**
 * The password form's headers: never stored by any cache (a password added by PATCH applies to
 * the next request), never indexed, posting back to this origin only.
 */
export const PASSWORD_FORM_HEADERS: Readonly<Record<string, string>> = {
  ...PREVIEW_HEADERS,
  'Content-Security-Policy': PASSWORD_FORM_CSP,
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex, nofollow',
};

/**
 * The form of a password-protected link (`GET /:code`, and again after a wrong password with
 * `message`): it posts `password` to the address it was served from (no `action`, so the query the
 * link was followed with goes along). Never shows where the link leads.
 */
export function renderPasswordPage(fullURL: string, message?: string): string {
  const short = escapeHtml(fullURL);
  const notice =
    message === undefined ? '' : `<p class="notice" id="password-error" role="alert">${escapeHtml(message)}</p>\n`;
  return page(
    'Password required',
    '',
    `<h1>This link is password-protected</h1>
<p>Enter the password of <span class="short">${short}</span> to continue.</p>
${notice}<form method="post" id="password-form">
<label for="password">Password</label>
<div class="copy"><input id="password" name="password" type="password" required autocomplete="current-password" autofocus><button type="submit">Continue</button></div>
</form>`,
  );
}
