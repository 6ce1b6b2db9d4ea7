import { createHash } from 'node:crypto';

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
body{margin:0;padding:3rem 1rem;background:Canvas;color:CanvasText}
main{max-width:28rem;margin:0 auto}
h1{font-size:1.3rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{box-sizing:border-box;width:100%;font:inherit;font-family:ui-monospace,monospace;padding:.45rem}
button{margin-top:.75rem;font:inherit;padding:.45rem 1rem;cursor:pointer}
.error{border:2px solid #dc2626;border-radius:.5rem;padding:.5rem .75rem;background:rgba(220,38,38,.1)}
p.note{font-size:.9rem;opacity:.8}
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** No script at all; only the page's own style (pinned by hash); the form posts to this origin only. */
export const ADMIN_LOGIN_CSP = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const ADMIN_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': ADMIN_LOGIN_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'no-store',
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The admin login form: the operator pastes an API key with the `admin` flag. */
export function renderAdminLoginPage(options: { error?: string } = {}): string {
  const error = options.error ? `<p class="error" id="error" role="alert">${escapeHtml(options.error)}</p>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Pawlink thumbs · admin login</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Pawlink thumbs · admin</h1>
${error}<form method="post" action="/admin/login">
<label for="key">API key with the admin flag</label>
<input id="key" name="key" type="password" autocomplete="off" required maxlength="200">
<button type="submit" id="login">Log in</button>
</form>
<p class="note">The key is checked and exchanged for a session cookie (8 hours by default); the key itself is not kept.</p>
</main>
</body>
</html>
`;
}
