import type { ServiceName } from '@pawlink/contracts';
import escapeHtml from 'escape-html';
import { DOCS_ASSETS_VERSION } from './docs-assets.js';

/** A rate-limit rule as the page lists it. */
export interface DocsRateLimit {
  bucket: string;
  limit: number;
  windowMs: number;
}

/** A table the page shows above the reference (the images service lists its categories). */
export interface DocsSection {
  title: string;
  columns: string[];
  /** Cells; a number is right-aligned. */
  rows: Array<Array<string | number>>;
  /** Shown instead of an empty table, or under it. */
  note?: string;
}

export interface DocsPageContent {
  service: ServiceName;
  title: string;
  /** The document's `info.version`. */
  version: string;
  description: string;
  publicUrl: string;
  /** The other services by name and public URL. */
  otherServices: Array<{ service: ServiceName; url: string }>;
  rateLimits: DocsRateLimit[];
  sections: DocsSection[];
  /** Pages of the service for people (the shortener's console), linked from the header. */
  pages?: DocsLinkedPage[];
}

/** A page the service serves for people, as the documentation links it. */
export interface DocsLinkedPage {
  title: string;
  /** Relative to the service's base URL (`console/`), so a proxy's path prefix keeps working. */
  path: string;
  description: string;
}

const per = (windowMs: number): string =>
  windowMs === 60_000
    ? 'minute'
    : windowMs === 1000
      ? 'second'
      : windowMs === 3_600_000
        ? 'hour'
        : `${windowMs / 1000} s`;
const limitText = (rule: DocsRateLimit): string =>
  rule.limit === 0 ? 'unlimited' : `${rule.limit} per ${per(rule.windowMs)}`;

function table(section: DocsSection): string {
  const head = `<tr>${section.columns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('')}</tr>`;
  const rows = section.rows
    .map(
      (row) =>
        `<tr>${row.map((cell) => (typeof cell === 'number' ? `<td class="number">${cell}</td>` : `<td>${escapeHtml(cell)}</td>`)).join('')}</tr>`,
    )
    .join('\n');
  const note = section.note ? `<p class="note">${escapeHtml(section.note)}</p>` : '';
  return `<section id="${escapeHtml(section.title.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}"><h2>${escapeHtml(section.title)}</h2>${section.rows.length > 0 ? `<table>${head}\n${rows}</table>` : ''}${note}</section>`;
}

/**
 * The documentation page: what a person needs before the reference (the service and its title
 * once, its base URL, the auth header, failures, the rate limits, the other services,
 * service-specific tables), then the reference rendered from `/openapi.json` by Swagger UI, whose
 * own title block is left out (pawlink-docs.js) so the title is not shown twice. No inline script
 * or style: everything is loaded from `assets/docs/` under the page's CSP. Links are relative so a
 * path prefix of a reverse proxy keeps working.
 */
export function renderDocsPage(content: DocsPageContent): string {
  const asset = (name: string): string => `assets/docs/${name}?v=${DOCS_ASSETS_VERSION}`;
  const others = content.otherServices
    .map(
      ({ service, url }) =>
        `<li><a href="${escapeHtml(url)}/">${escapeHtml(service)}</a> <code>${escapeHtml(url)}</code></li>`,
    )
    .join('');
  const limits: DocsSection = {
    title: 'Rate limits',
    columns: ['Bucket', 'Default limit'],
    rows: content.rateLimits.map((rule) => [rule.bucket, limitText(rule)]),
    note: 'Per API key, or per client IP without one; a key may carry its own limits. Past a limit: 429 with code 1000 (route) or 1001 (global) and X-RateLimit-* and Retry-After headers.',
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.title)} — API documentation</title>
<link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
<link rel="stylesheet" href="${asset('pawlink-docs.css')}">
</head>
<body>
<header class="pawlink-docs">
<h1 id="service-name">${escapeHtml(content.title)}</h1>
<p>${escapeHtml(content.description)}</p>
<p>Base URL: <code id="base-url">${escapeHtml(content.publicUrl)}</code> · API version ${escapeHtml(content.version)} · OpenAPI 3.1 document: <a href="openapi.json">openapi.json</a></p>
<p id="auth">Authentication: send your API key as <code>Authorization: &lt;key&gt;</code> (or <code>Authorization: Bearer &lt;key&gt;</code>); each operation says whether it needs one.</p>
<p id="failures">Failures are JSON <code>{success:false, error, code}</code>: <code>error</code> is for people, <code>code</code> is the contract; each operation lists the codes it can answer. Every response carries <code>X-Request-Id</code>.</p>
${
  content.pages && content.pages.length > 0
    ? `<h2>Pages</h2><ul id="pages">${content.pages.map((page) => `<li><a href="${escapeHtml(page.path)}">${escapeHtml(page.title)}</a>: ${escapeHtml(page.description)}</li>`).join('')}</ul>`
    : ''
}
${others ? `<h2>Other services</h2><ul id="other-services">${others}</ul>` : ''}
${table(limits)}
${content.sections.map(table).join('\n')}
</header>
<main id="swagger-ui" data-openapi-url="openapi.json"></main>
<script src="${asset('swagger-ui-bundle.js')}"></script>
<script src="${asset('pawlink-docs.js')}"></script>
</body>
</html>
`;
}
