import escapeHtml from 'escape-html';
import { createHash } from 'node:crypto';
import type { ShortUrlPreview } from '../services/preview-short-url.service.js';
import type { ExpiredLink } from '../domain/short-url-record.rules.js';

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5}
body{margin:0;padding:2rem 1rem;background:Canvas;color:CanvasText}
main{max-width:42rem;margin:0 auto}
h1{font-size:1.4rem;margin:0 0 1rem}
h1 .short{font-family:ui-monospace,monospace;word-break:break-all}
.notice{border:2px solid #d97706;border-radius:.5rem;padding:.75rem 1rem;background:rgba(217,119,6,.12)}
.target{font-size:1.1rem;word-break:break-all}
.copy{display:flex;gap:.5rem;margin:.5rem 0 1.5rem}
.copy input{flex:1;min-width:0;font:inherit;font-family:ui-monospace,monospace;padding:.4rem;user-select:all;-webkit-user-select:all}
.copy button{font:inherit;padding:.4rem .9rem;cursor:pointer}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0;word-break:break-word}
.qr{margin:1.5rem 0 0}
.qr svg{display:block;width:12rem;height:12rem;background:#fff}
`;

// Progressive enhancement: without JavaScript the button stays hidden and the text stays selectable.
const SCRIPT = `(function(){var b=document.getElementById("copy-button"),i=document.getElementById("target-url");if(!b||!i)return;b.hidden=false;function done(ok){b.textContent=ok?"Copied!":"Press Ctrl+C to copy";}function fallback(){i.focus();i.select();var ok=false;try{ok=document.execCommand("copy");}catch(e){}done(ok);}b.addEventListener("click",function(){if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(i.value).then(function(){done(true);},fallback);}else{fallback();}});})();`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * Nothing may load or run but the page's own inline style and script, pinned by hash; `formAction`
 * is where a form may post (none but the password form's own address).
 */
const cspWith = (formAction: string): string =>
  [
    "default-src 'none'",
    `style-src ${sha256(STYLE)}`,
    `script-src ${sha256(SCRIPT)}`,
    "img-src 'none'",
    "base-uri 'none'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
  ].join('; ');

export const PREVIEW_CSP = cspWith("'none'");

/** The password form's policy: the preview's, but its form may post back to this origin. */
export const PASSWORD_FORM_CSP = cspWith("'self'");

export const PREVIEW_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': PREVIEW_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'private, no-cache',
};

const time = (iso: string): string =>
  `<time datetime="${escapeHtml(iso)}">${escapeHtml(new Date(iso).toUTCString())}</time>`;

/** A page of the public paths (preview, expired, not found, limited, password form), under the preview's style and script. */
export function page(title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(title)}</title>
${head}<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The preview of one short URL; every user-supplied value goes through escape-html.
 * `urlChangedAt` (ISO) is when an edit last changed the destination, null when none did.
 */
export function renderPreviewPage({ record, urlChangedAt, visits, qrSvg }: ShortUrlPreview): string {
  // A protected link's preview names no destination (`record.url` is null): the password decides.
  const url = escapeHtml(record.url ?? '');
  const short = escapeHtml(record.fullURL);
  const credit = escapeHtml(record.credit);
  const title =
    record.url === null ? `${record.fullURL} (password-protected)` : `${record.fullURL} → ${hostOf(record.url)}`;
  const description =
    record.url === null
      ? `This short link is password-protected (credit: ${record.credit}).`
      : `This short link redirects to ${record.url} (credit: ${record.credit}).`;
  const meta = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'Pawlink'],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', `${record.fullURL}+`],
    ['name', 'twitter:card', 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  ]
    .map(([attribute, name, content]) => `<meta ${attribute}="${name}" content="${escapeHtml(content)}">\n`)
    .join('');
  // Only a changed destination is worth a warning; a credit-only edit shows in the times below.
  const notice = urlChangedAt
    ? `<p class="notice" id="destination-notice" role="status"><strong>Heads up:</strong> The destination of this link was changed on ${time(urlChangedAt)}, after it was created, so where it leads may differ from what was first shared.</p>\n`
    : '';
  const target =
    record.url === null
      ? `<p id="protected">This link is password-protected: its destination is shown to nobody before the password.</p>`
      : `<p>This link takes you to:</p>
<p class="target"><a id="target-link" href="${url}" rel="nofollow noopener noreferrer">${url}</a></p>
<label for="target-url">Destination, to copy:</label>
<div class="copy"><input id="target-url" type="text" readonly value="${url}"><button id="copy-button" type="button" hidden>Copy</button></div>`;
  // Where rules may send a visit instead (issue 38), as openly as an edited destination.
  const ruleTargets =
    record.rules.length === 0
      ? ''
      : `\n<p>Depending on the visitor (device, language, country, time or link parameters), it may instead lead to:</p>
<ul id="rule-targets">${record.rules
          .map(
            (rule) =>
              `<li><a href="${escapeHtml(rule.url)}" rel="nofollow noopener noreferrer">${escapeHtml(rule.url)}</a> <small>(${escapeHtml(
                Object.entries(rule.when)
                  .map(
                    ([name, value]) =>
                      `${name}: ${typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : String(value)}`,
                  )
                  .join('; '),
              )})</small></li>`,
          )
          .join('')}</ul>`;
  const body = `<h1>Short link <span class="short">${short}</span></h1>
${notice}${target}${ruleTargets}
<dl>
<dt>Short URL</dt><dd>${short}</dd>
<dt>Credit</dt><dd id="credit">${credit}</dd>
<dt>Created</dt><dd>${time(record.createdAt)}</dd>
<dt>Modified</dt><dd>${record.modifiedAt ? time(record.modifiedAt) : 'Never'}</dd>
<dt>Visits</dt><dd id="visits">${count(visits)}</dd>
${record.expiresAt ? `<dt>Expires</dt><dd id="expires">${time(record.expiresAt)}</dd>\n` : ''}${record.maxVisits !== null ? `<dt>Visit limit</dt><dd id="max-visits">${count(record.maxVisits)}</dd>\n` : ''}</dl>
<figure class="qr" id="qr">${qrSvg.trim()}<figcaption>Scan to open ${short} · <a id="qr-png" href="${escapeHtml(`${record.fullURL}/qr?format=png`)}" download>PNG</a> · <a id="qr-svg" href="${escapeHtml(`${record.fullURL}/qr`)}" download>SVG</a></figcaption></figure>`;
  return page(title, meta, body);
}

/** An expired link's page (410): when and why it stopped; never where it led. */
export function renderExpiredPage(expired: ExpiredLink): string {
  const why =
    expired.reason === 'maxVisits'
      ? `It reached its limit of ${count(expired.maxVisits ?? 0)} visits on ${time(expired.expiredAt)}.`
      : `It expired on ${time(expired.expiredAt)}.`;
  return page(
    'Expired short link',
    '',
    `<h1>This short link has expired</h1>\n<p id="expired">The short link <span class="short">${escapeHtml(expired.fullURL)}</span> no longer leads anywhere. ${why}</p>`,
  );
}

export function renderNotFoundPage(): string {
  return page('Unknown short url', '', '<h1>Not found</h1>\n<p>Unknown short url code.</p>');
}

/** The page of a preview refused by the lookup limit; `message` says when to try again. */
export function renderLimitedPage(message: string): string {
  return page('Too many requests', '', `<h1>Too many requests</h1>\n<p id="limited">${escapeHtml(message)}</p>`);
}
