import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file the documentation page loads, held in memory (with its gzip form) once first asked for. */
export interface DocsAsset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

// Starts the renderer on the page's container; the page gives the document's URL in a data attribute,
// so no inline script is needed under the CSP. The page's header already shows the title, version and
// the gist of the description: Swagger UI's own title block (InfoContainer) renders nothing.
// Accessibility (axe-core, no serious or critical violation): an operation's path is plain text
// inside its expand button (Swagger UI's deep-link anchor there nests a link in a button; deep links
// still work: expanding sets the address and an address opens its operation), and the servers
// select, whose label Swagger UI leaves empty, is named.
const INIT_SCRIPT = `(function () {
  var root = document.getElementById('swagger-ui');
  if (!root || typeof SwaggerUIBundle !== 'function') return;
  var withoutTitleBlock = function () {
    return { wrapComponents: { InfoContainer: function () { return function () { return null; }; } } };
  };
  var pathsAsText = function () {
    return {
      wrapComponents: {
        DeepLink: function (Original, system) {
          return function (props) { return system.React.createElement('span', null, props.text); };
        }
      }
    };
  };
  var nameServersSelect = function () {
    var select = document.getElementById('servers');
    if (select && !select.hasAttribute('aria-label')) select.setAttribute('aria-label', 'Server');
  };
  new MutationObserver(nameServersSelect).observe(root, { childList: true, subtree: true });
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    domNode: root,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [withoutTitleBlock, pathsAsText],
    layout: 'BaseLayout'
  });
})();
`;

const PAGE_STYLE = `.pawlink-docs{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;max-width:1460px;margin:0 auto;padding:1.5rem 20px 0;color:#3b4151}
.pawlink-docs h1{font-size:1.8rem;margin:0 0 .25rem}
.pawlink-docs h2{font-size:1.15rem;margin:1.25rem 0 .5rem}
.pawlink-docs code{font-family:ui-monospace,monospace;background:#f3f4f6;padding:.05rem .3rem;border-radius:.25rem}
.pawlink-docs table{border-collapse:collapse;font-size:.95rem}
.pawlink-docs th,.pawlink-docs td{text-align:left;padding:.2rem .9rem .2rem 0;border-bottom:1px solid #e5e7eb}
.pawlink-docs td.number{text-align:right}
.pawlink-docs ul{margin:.25rem 0;padding-left:1.25rem}
.pawlink-docs .note{color:#4b5563}
.swagger-ui .btn.authorize{color:#17613f;border-color:#17613f}
.swagger-ui .btn.authorize svg{fill:#17613f}
.swagger-ui .opblock.opblock-get .opblock-summary-method{background:#1d5f9f}
.swagger-ui .opblock.opblock-post .opblock-summary-method{background:#17613f}
.swagger-ui .opblock.opblock-put .opblock-summary-method{background:#8f4700}
.swagger-ui .opblock.opblock-delete .opblock-summary-method{background:#b3261e}
.swagger-ui .opblock.opblock-patch .opblock-summary-method{background:#0b6b5e}
.swagger-ui .opblock.opblock-head .opblock-summary-method{background:#6b1fb8}
.swagger-ui .opblock.opblock-options .opblock-summary-method{background:#0d5aa7}
.swagger-ui .opblock.opblock-deprecated{opacity:1}
.swagger-ui .opblock.opblock-deprecated .opblock-summary-method{background:#5f6368}
.swagger-ui .opblock.opblock-deprecated .opblock-summary-path__deprecated,.swagger-ui .opblock.opblock-deprecated .opblock-summary-description{color:#3b4151}
`;

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The renderer's version: part of the asset URLs, so a new version is never served from a stale cache. */
export const SWAGGER_UI_VERSION = (
  JSON.parse(readFileSync(path.join(SWAGGER_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

type Source = { type: string; file: string } | { type: string; text: string };

/** Every file the page may load, by name: swagger-ui-dist's from node_modules, and Pawlink's own. */
const SOURCES: Record<string, Source> = {
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', file: 'swagger-ui-bundle.js' },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', file: 'swagger-ui.css' },
  'favicon-32x32.png': { type: 'image/png', file: 'favicon-32x32.png' },
  'pawlink-docs.js': { type: 'text/javascript; charset=utf-8', text: INIT_SCRIPT },
  'pawlink-docs.css': { type: 'text/css; charset=utf-8', text: PAGE_STYLE },
};

const loaded = new Map<string, DocsAsset>();

/** The asset named `name`, or undefined for any other name. */
export function docsAsset(name: string): DocsAsset | undefined {
  const source = Object.hasOwn(SOURCES, name) ? SOURCES[name] : undefined;
  if (!source) return undefined;
  let asset = loaded.get(name);
  if (!asset) {
    const body =
      'file' in source ? readFileSync(path.join(SWAGGER_DIR, source.file)) : Buffer.from(source.text, 'utf8');
    asset = { type: source.type, body, gzip: gzipSync(body) };
    loaded.set(name, asset);
  }
  return asset;
}

/** Cache-busting query of the asset URLs: the renderer's version and a hash of Pawlink's own files. */
export const DOCS_ASSETS_VERSION = `${SWAGGER_UI_VERSION}-${createHash('sha256').update(INIT_SCRIPT).update(PAGE_STYLE).digest('hex').slice(0, 10)}`;
