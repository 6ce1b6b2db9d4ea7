import { DOCS_ASSETS_PREFIX, OPENAPI_PATH, servedDocument, type OpenApiDocument } from '@pawlink/contracts/openapi';
import { SERVICES, type ServiceName } from '@pawlink/contracts';
import type { Express, Request } from 'express';
import { ApiError } from '../api-error.js';
import { onlyMethods } from '../only-methods.js';
import { docsAsset } from './docs-assets.js';
import { renderDocsPage, type DocsLinkedPage, type DocsRateLimit, type DocsSection } from './docs-page.js';

export interface ServiceDocs {
  /** The service's OpenAPI document (`@pawlink/contracts/openapi`); its internal paths are not served. */
  document: OpenApiDocument;
  /** Public base URLs from the configuration (SHORTENER_URL, IMAGES_URL, THUMBS_URL). */
  urls: Record<ServiceName, string>;
  /** The service's rate-limit rules (route buckets, global, invalid keys). */
  rateLimits: DocsRateLimit[];
  /** Tables of the service's own (the images categories); a failure leaves them out with a note. */
  sections?: () => Promise<DocsSection[]>;
  /** Pages of the service for people (the shortener's console), linked from the header. */
  pages?: DocsLinkedPage[];
}

const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** A script, a style sheet or the page's CSP would allow nothing else: no inline code, no other origin. */
function pageCsp(publicUrl: string): string {
  const api = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** True when the client ranks JSON above HTML (API clients asking `GET /` what this is). */
function prefersJson(req: Request): boolean {
  return req.accepts(['text/html', 'application/json']) === 'application/json';
}

/**
 * `GET /` (the documentation page, or a JSON pointer for clients that prefer JSON),
 * `GET /openapi.json` (serialized once) and `GET /assets/docs/:file` (the page's scripts and styles
 * from node_modules, cacheable). Public, not rate limited, no dependency. Registered before the
 * service's routes so no parameterised route (`/:code.json`, `/:category`) takes these paths.
 */
export function registerDocsRoutes(app: Express, service: ServiceName, docs: ServiceDocs): void {
  const publicUrl = docs.urls[service];
  const json = Buffer.from(JSON.stringify(servedDocument(docs.document, publicUrl)));
  const csp = pageCsp(publicUrl);
  const pointer = { success: true, service, openapi: `${publicUrl}${OPENAPI_PATH}`, docs: `${publicUrl}/` };
  const others = SERVICES.filter((name) => name !== service).map((name) => ({ service: name, url: docs.urls[name] }));

  app.get('/', async (req, res) => {
    res.setHeader('Vary', 'Accept');
    if (prefersJson(req)) {
      res.json(pointer);
      return;
    }
    let sections: DocsSection[] = [];
    try {
      sections = (await docs.sections?.()) ?? [];
    } catch {
      sections = [{ title: 'Service state', columns: [], rows: [], note: 'Not available right now.' }];
    }
    const html = renderDocsPage({
      service,
      title: docs.document.info.title,
      version: docs.document.info.version,
      description: (docs.document.info.description ?? '').split('\n')[0] ?? '',
      publicUrl,
      otherServices: others,
      rateLimits: docs.rateLimits,
      sections,
      ...(docs.pages ? { pages: docs.pages } : {}),
    });
    res.set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
    });
    res.send(html);
  });
  app.all('/', onlyMethods('GET', 'HEAD'));

  app.get(OPENAPI_PATH, (_req, res) => {
    res.set({
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Access-Control-Allow-Origin': '*',
    });
    res.send(json);
  });
  app.all(OPENAPI_PATH, onlyMethods('GET', 'HEAD'));

  app.get(`${DOCS_ASSETS_PREFIX}:file`, (req, res) => {
    const asset = docsAsset(req.params.file ?? '');
    if (!asset) throw new ApiError('UNKNOWN_ROUTE');
    const gzip = req.acceptsEncodings(['gzip', 'identity']) === 'gzip';
    res.set({
      'Content-Type': asset.type,
      'Cache-Control': ASSET_CACHE,
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
    });
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.send(gzip ? asset.gzip : asset.body);
  });
}
