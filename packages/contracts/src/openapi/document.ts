import type { ServiceName } from '../common.js';
import { errorResponses, errorSchemas, schemaRef } from './error-schemas.js';
import { HEADER_FIELDS_LIMIT_BYTES, REQUEST_TARGET_LIMIT_BYTES } from '../common.js';
import { header, requestIdHeader } from './headers.js';
import { json, media, operation, pathParameter, successWith } from './operations.js';
import { KEY_USAGE_SCHEMA } from './key-usage.schema.js';
import {
  FALLBACK,
  INTERNAL,
  type JsonSchema,
  type OpenApiDocument,
  type PathItemObject,
  type ResponseObject,
} from './types.js';

/** Where every service serves its document and its documentation page's assets. */
export const OPENAPI_PATH = '/openapi.json';
export const DOCS_ASSETS_PREFIX = '/assets/docs/';

/** The failure body every service answers with (docs/api.md §1); each code's schema narrows it. */
const ERROR_RESPONSE: JsonSchema = {
  type: 'object',
  description: 'A failure: `error` is for humans, `code` is the contract (see the Error<code> schemas).',
  required: ['success', 'error', 'code'],
  properties: { success: { const: false }, error: { type: 'string' }, code: { type: 'integer' } },
};

const RATE_LIMIT_INFO: JsonSchema = {
  type: 'object',
  required: ['limit', 'remaining', 'reset', 'resetAfter', 'retryAfter', 'bucket', 'global'],
  properties: {
    limit: { type: 'integer', minimum: 0 },
    remaining: { type: 'integer', minimum: 0 },
    reset: { type: 'number', description: 'Unix time in seconds when the window resets.' },
    resetAfter: { type: 'number', description: 'Seconds until the window resets.' },
    retryAfter: { type: 'integer', minimum: 1 },
    bucket: { type: 'string' },
    global: { type: 'boolean' },
  },
  additionalProperties: false,
};

const DEPENDENCY_CHECKS: JsonSchema = {
  type: 'object',
  additionalProperties: { enum: ['up', 'down'] },
  description: 'Each dependency of the process and whether it answers.',
};

const LIMIT_STATUS: JsonSchema = {
  type: 'object',
  required: ['limit', 'remaining', 'reset', 'resetAfter', 'windowSeconds'],
  properties: {
    limit: { type: ['integer', 'null'], minimum: 0, description: 'Null when unlimited.' },
    remaining: { type: ['integer', 'null'], minimum: 0, description: 'Null when unlimited.' },
    reset: {
      type: ['number', 'null'],
      description: 'Unix seconds when the open window resets; null while none is open.',
    },
    resetAfter: {
      type: ['number', 'null'],
      minimum: 0,
      description: 'Seconds until then; null while no window is open.',
    },
    windowSeconds: { type: 'number', exclusiveMinimum: 0 },
  },
  additionalProperties: false,
};

/** `GET /status` (docs/api.md §1). Services may add named sections to `data` (images: its categories). */
const STATUS: JsonSchema = successWith({
  type: 'object',
  required: ['service', 'readOnly', 'key', 'limits'],
  properties: {
    service: { type: 'string' },
    readOnly: { type: 'boolean' },
    key: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['id', 'name', 'flags', 'active', 'disabled', 'disabledReason', 'bulkLimit'],
          properties: {
            id: { type: 'integer' },
            name: { type: 'string' },
            flags: { type: 'array', items: { type: 'string' } },
            active: { type: 'boolean' },
            disabled: { type: 'boolean' },
            disabledReason: { type: ['string', 'null'] },
            bulkLimit: { type: 'integer', minimum: 0 },
          },
          additionalProperties: false,
        },
      ],
    },
    limits: {
      type: 'object',
      required: ['global', 'status'],
      properties: { global: LIMIT_STATUS, status: LIMIT_STATUS },
      additionalProperties: LIMIT_STATUS,
    },
    usage: KEY_USAGE_SCHEMA,
  },
});

/**
 * What a request no operation takes is answered, on every service: a path no template matches is
 * 404 1024; a documented path asked with a method it lacks is 405 1025 with `Allow` (OPTIONS: 204
 * with `Allow`). HEAD is answered as GET without a body. A request refused before any operation
 * sees it (docs/api.md §1, protocol-level answers) gets one of the protocol refusals, whatever its path. The response
 * validator of the tests holds the services to these.
 */
function fallbackResponses(): Record<string, ResponseObject> {
  const unknown = errorResponses(['UNKNOWN_ROUTE'])['404']!;
  const wrongMethod = errorResponses(['METHOD_NOT_ALLOWED'])['405']!;
  const headTooLarge = errorResponses(['REQUEST_HEAD_TOO_LARGE'])['431']!;
  const late = errorResponses(['REQUEST_TIMEOUT'])['408']!;
  const malformed = errorResponses(['MALFORMED_BODY'])['400']!;
  return {
    UnknownRoute: { ...unknown, description: `No documented path matches. ${unknown.description}` },
    MethodNotAllowed: {
      ...wrongMethod,
      description: `The path exists but not with this method; \`Allow\` lists its methods. ${wrongMethod.description}`,
    },
    Options: {
      description: 'OPTIONS on a documented path: its methods in `Allow`, no body.',
      headers: { ...requestIdHeader(), Allow: header('Allow', true) },
    },
    MalformedRequest: {
      ...malformed,
      description: `A request line or header that cannot be parsed, or an HTTP/1.1 request without \`Host\`; the connection is closed. ${malformed.description}`,
    },
    RequestTimeout: {
      ...late,
      description: `The head or the body did not arrive within the server's limits (\`HTTP_HEADERS_TIMEOUT_MS\`, \`HTTP_REQUEST_TIMEOUT_MS\`); the connection is closed. ${late.description}`,
    },
    RequestTargetTooLong: {
      ...headTooLarge,
      description: `A request target (path and query) over ${REQUEST_TARGET_LIMIT_BYTES} bytes. ${headTooLarge.description}`,
    },
    HeaderFieldsTooLarge: {
      ...headTooLarge,
      description: `Header fields (names and values) over ${HEADER_FIELDS_LIMIT_BYTES} bytes in all. ${headTooLarge.description}`,
    },
  };
}

/** The protocol refusals by status, as `x-pawlink-fallback.protocol` names them. */
const PROTOCOL_REFUSALS = {
  '400': 'MalformedRequest',
  '408': 'RequestTimeout',
  '414': 'RequestTargetTooLong',
  '431': 'HeaderFieldsTooLarge',
} as const;

const tag = 'service';

/** The paths every service answers: its documentation, its document, liveness, readiness and status (metrics are on a separate listener, not here). */
function servicePaths(): Record<string, PathItemObject> {
  const base = { tags: [tag], access: 'public' as const, usesDependencies: false };
  return {
    '/': {
      get: operation({
        ...base,
        operationId: 'getDocumentation',
        summary: 'This documentation',
        description:
          'The HTML page rendered from this document. A client that prefers JSON over HTML gets a small pointer to the document instead.',
        responses: {
          '200': {
            description: 'The page, or (Accept: application/json) where to find the document.',
            headers: { 'Content-Security-Policy': header('Content-Security-Policy') },
            content: {
              'text/html': { schema: { type: 'string' } },
              'application/json': { schema: schemaRef('DocumentationPointer') },
            },
          },
        },
      }),
    },
    [OPENAPI_PATH]: {
      get: operation({
        ...base,
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document',
        responses: {
          '200': json('The document; `servers` names the configured public base URL.', {
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
          }),
        },
      }),
    },
    [`${DOCS_ASSETS_PREFIX}{file}`]: {
      get: operation({
        ...base,
        operationId: 'getDocumentationAsset',
        summary: 'A script, style sheet or icon of the documentation page',
        description: 'Served from the renderer the service ships; cacheable.',
        parameters: [pathParameter('file', 'The asset file name.', { type: 'string', pattern: '^[A-Za-z0-9._-]+$' })],
        responses: {
          '200': media('The asset.', ['text/javascript', 'text/css', 'image/png'], {
            'Cache-Control': header('Cache-Control', true),
          }),
        },
        errors: ['UNKNOWN_ROUTE'],
      }),
    },
    '/online': {
      get: operation({
        ...base,
        operationId: 'getOnline',
        summary: 'Liveness',
        responses: {
          '200': json('The process answers.', {
            type: 'object',
            required: ['success', 'uptime'],
            properties: {
              success: { const: true },
              uptime: { type: 'integer', minimum: 0, description: 'Seconds since the process started.' },
              readOnly: { type: 'boolean' },
            },
            additionalProperties: false,
          }),
        },
      }),
    },
    '/ready': {
      get: operation({
        ...base,
        operationId: 'getReady',
        summary: 'Readiness: whether Redis and the database answer',
        responses: {
          '200': json('Ready.', {
            type: 'object',
            required: ['success', 'ready', 'checks'],
            properties: { success: { const: true }, ready: { const: true }, checks: DEPENDENCY_CHECKS },
            additionalProperties: false,
          }),
          ...errorResponses(['DEPENDENCY_UNAVAILABLE'], {
            extra: { properties: { checks: DEPENDENCY_CHECKS }, required: ['checks'] },
            note: 'Not ready: `checks` says what is down.',
          }),
        },
      }),
    },
    '/status': {
      get: operation({
        tags: [tag],
        access: 'optional-key',
        rateLimit: 'status',
        operationId: 'getStatus',
        summary: 'The service, the key presented and its rate limits',
        description:
          'Never the key, its hash or its contact. `key` is null without a key; `limits` are then those of the client IP. ' +
          "`limits` has `global` and every bucket of the service (with the key's overrides); reading them counts nothing, the request itself counts in `status` and `global`.",
        responses: { '200': json('The status.', STATUS, { 'Cache-Control': header('Cache-Control', true) }) },
      }),
    },
  };
}

export interface ServiceDocumentSpec {
  service: ServiceName;
  title: string;
  description: string;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, PathItemObject>;
  schemas: Record<string, JsonSchema>;
}

/** The version of the documents; bump it with a change of the contract. */
export const API_VERSION = '1.0.0';

const SHARED_DESCRIPTION = `
**Authentication.** Send an API key as \`Authorization: <key>\` (or \`Authorization: Bearer <key>\`).

**Failures** are JSON \`{success:false, error, code}\`: \`error\` is for humans, \`code\` is the contract.
Every code an operation can answer is listed under its responses (schemas \`Error<code>\`).
Any path no operation takes answers 404 code 1024; a known path asked with another method answers
405 code 1025 with \`Allow\` (OPTIONS: 204 with \`Allow\`); HEAD is answered like GET without a body.
A path with a percent-escape that cannot be decoded is an unknown route (1024) unless its operation says otherwise.

**Refused before any operation** (on every path; the connection is then closed): 408 code 1016 when
the head or the body does not arrive in time; 414 code 1015 for a request target over 8 KiB; 431
code 1015 for header fields over 16 KiB in all; 400 code 1026 for a request that cannot be parsed
or an HTTP/1.1 request without \`Host\`. A body in an encoding or charset the service does not
decode is 415 code 1014 on the operations that read one (gzip, deflate and br are decoded; JSON is
read as UTF-8, forms as UTF-8 or ISO-8859-1).

**Every 503** carries \`Retry-After\`.

**Rate limits** are per key, or per client IP without one: a route bucket and a per-service global window.
Limited answers are 429 with code 1000 (route) or 1001 (global), an \`info\` object and the
\`X-RateLimit-*\` and \`Retry-After\` headers.

Every response carries \`X-Request-Id\`.`;

/** A service's document: its own paths plus the shared ones, components and fallback. */
export function serviceDocument(spec: ServiceDocumentSpec): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: spec.title, version: API_VERSION, description: `${spec.description}\n${SHARED_DESCRIPTION}` },
    tags: [...spec.tags, { name: tag, description: 'What every Pawlink service answers.' }],
    paths: { ...spec.paths, ...servicePaths() },
    components: {
      schemas: {
        ErrorResponse: ERROR_RESPONSE,
        RateLimitInfo: RATE_LIMIT_INFO,
        DocumentationPointer: {
          type: 'object',
          required: ['success', 'service', 'openapi', 'docs'],
          properties: {
            success: { const: true },
            service: { const: spec.service },
            openapi: { type: 'string', format: 'uri' },
            docs: { type: 'string', format: 'uri' },
          },
          additionalProperties: false,
        },
        ...spec.schemas,
        ...errorSchemas(),
      },
      responses: fallbackResponses(),
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The API key as `Authorization: <key>`; `Bearer <key>` is also accepted.',
        },
      },
    },
    [FALLBACK]: {
      unknownRoute: { $ref: '#/components/responses/UnknownRoute' },
      methodNotAllowed: { $ref: '#/components/responses/MethodNotAllowed' },
      options: { $ref: '#/components/responses/Options' },
      head: 'as GET, without a body',
      protocol: Object.fromEntries(
        Object.entries(PROTOCOL_REFUSALS).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]),
      ),
    },
  };
}

/** The document with `servers` set to a service's configured public base URL. */
export const withServer = (document: OpenApiDocument, url: string): OpenApiDocument => ({
  ...document,
  servers: [{ url }],
});

/** The document without the paths marked INTERNAL: what a service serves and its page renders. */
export const publicDocument = (document: OpenApiDocument): OpenApiDocument => ({
  ...document,
  paths: Object.fromEntries(Object.entries(document.paths).filter(([, item]) => item[INTERNAL] !== true)),
});

/** Every `#/components/schemas/<name>` that `value` refers to, directly or through the schemas it names. */
function referencedSchemas(value: unknown, schemas: Record<string, unknown>, found = new Set<string>()): Set<string> {
  const json = JSON.stringify(value);
  for (const match of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
    const name = match[1]!;
    if (found.has(name) || !(name in schemas)) continue;
    found.add(name);
    referencedSchemas(schemas[name], schemas, found);
  }
  return found;
}

/**
 * The document without the schemas nothing in it refers to: each service's document is built
 * with one schema per registry code, of which a service answers some (a linter, rightly, reports
 * the others as unused).
 */
export function withoutUnusedSchemas(document: OpenApiDocument): OpenApiDocument {
  const { schemas, ...components } = document.components;
  const used = referencedSchemas({ ...document, components }, schemas);
  return {
    ...document,
    components: {
      ...components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
    },
  };
}

/**
 * The document as a service serves it (`GET /openapi.json`): public paths only, the schemas they
 * use, `servers` its public base URL.
 */
export const servedDocument = (document: OpenApiDocument, url: string): OpenApiDocument =>
  withServer(withoutUnusedSchemas(publicDocument(document)), url);
