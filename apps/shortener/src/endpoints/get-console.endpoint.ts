import { empty, header, media } from '@pawlink/contracts/openapi';
import { ApiError, inPath } from '@pawlink/service-kit';
import { sendConsoleFile } from '../http/console-files.http.js';
import { consoleAssetName } from './console.fields.js';
import { CONSOLE_TAGS, shortenerEndpoint } from './shortener.deps.js';

/**
 * Nothing inline, nothing from another origin: the console's built script and style sheet, the
 * API on this origin, the QR images this service draws. Like the documentation pages' CSP.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * GET /console/ (docs/console.md): the console's page, public (it signs in with the API). Its
 * assets are relative, so `/console` without the slash is redirected to it.
 */
export const getConsoleEndpoint = shortenerEndpoint({
  operationId: 'getConsole',
  summary: 'The console for link owners',
  description:
    'An HTML page (built from apps/console) that signs in with an API key and then uses only this API: lists, creates, edits and deletes links and charts their visits. `/console` redirects to `/console/`.',
  tags: CONSOLE_TAGS,
  method: 'get',
  path: '/console',
  refuseOtherMethods: true,
  guards: [],
  fields: {},
  responses: {
    200: media('The page.', ['text/html'], {
      'Content-Security-Policy': header('Content-Security-Policy', true),
      'Cache-Control': header('Cache-Control', true),
    }),
    301: empty('To `/console/`.', { Location: header('Location', true) }),
  },
  errors: ['UNKNOWN_ROUTE'],
  usesDependencies: false,
  handler:
    ({ config, services }) =>
    ({ req, res }) => {
      if (!req.path.endsWith('/')) {
        res.status(301).location(`${config.urls.shortener}/console/`).end();
        return;
      }
      const page = services.getConsole.page();
      if (!page) throw new ApiError('UNKNOWN_ROUTE', { message: 'The console was not built (pnpm build).' });
      res.set({
        'Content-Security-Policy': CONSOLE_CSP,
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-cache',
      });
      sendConsoleFile(req, res, page);
    },
});

/** Asset names carry a hash of their content: a new build has new names, so they never go stale. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** GET /console/assets/:file: a built script or style sheet of the console, cacheable for a year. */
export const getConsoleAssetEndpoint = shortenerEndpoint({
  operationId: 'getConsoleAsset',
  summary: 'A script or style sheet of the console',
  description: 'Built by `pnpm build` with content-hashed names; cacheable for a year.',
  tags: CONSOLE_TAGS,
  method: 'get',
  path: '/console/assets/:file',
  guards: [],
  fields: { file: inPath(consoleAssetName()) },
  responses: {
    200: media('The asset.', ['text/javascript', 'text/css', 'image/svg+xml'], {
      'Cache-Control': header('Cache-Control', true),
    }),
  },
  usesDependencies: false,
  handler:
    ({ services }) =>
    ({ input: { file }, req, res }) => {
      const asset = services.getConsole.asset(file);
      if (!asset) throw new ApiError('UNKNOWN_ROUTE');
      res.set('Cache-Control', ASSET_CACHE);
      sendConsoleFile(req, res, asset);
    },
});
