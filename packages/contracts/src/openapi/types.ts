/**
 * The parts of an OpenAPI 3.1 document Pawlink writes, typed loosely: schemas are JSON Schema 2020-12
 * objects, checked by the OpenAPI validator and ajv in the tests rather than by these types.
 */
export type { JsonSchema } from '../schema.js';
import type { JsonSchema } from '../schema.js';

export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export type Reference = { $ref: string };

export interface MediaTypeObject {
  schema?: JsonSchema;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Reference>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<ParameterObject | Reference>;
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Reference>;
  /** Out-of-band requests the service makes because of this operation (completion callbacks): name → runtime expression → path item. */
  callbacks?: Record<string, Record<string, PathItemObject>>;
  /** Still served, for old clients; new ones use another operation. */
  deprecated?: boolean;
  [extension: `x-${string}`]: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>> & {
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  [extension: `x-${string}`]: unknown;
};

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string; license?: { name: string; identifier?: string } };
  servers?: Array<{ url: string; description?: string }>;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses?: Record<string, ResponseObject>;
    headers?: Record<string, HeaderObject>;
    parameters?: Record<string, ParameterObject>;
    securitySchemes?: Record<string, Record<string, unknown>>;
  };
  [extension: `x-${string}`]: unknown;
}

/**
 * A path item's extension: its last template variable may span several `/`-separated segments
 * (Express's `/*splat`), as the images service's slashed category form does. OpenAPI itself has
 * no multi-segment variables; the response validator and the route check honour this.
 */
export const MULTI_SEGMENT = 'x-pawlink-multi-segment';

/**
 * A path item's extension: the path is answered by a sub-application mounted at this prefix
 * (Express `app.use(prefix, …)`, such as thumbs' bull-board dashboard), for every path under it.
 * Its operations say what the sub-application answers; the route check compares the mount itself
 * (documented prefix ⇔ mounted prefix) rather than the sub-application's own routes.
 */
export const MOUNTED = 'x-pawlink-mounted';

/**
 * A path item's extension: the path is the service's own business, not its public API (thumbs'
 * bull-board dashboard and its UI's API). It stays in the document, which the tests hold the
 * service to, and is left out of the document the service serves (`publicDocument`).
 */
export const INTERNAL = 'x-pawlink-internal';

/** The document's extension naming the answers to requests no operation takes (see `fallbackResponses`). */
export const FALLBACK = 'x-pawlink-fallback';

/** An operation's extension naming its rate-limit bucket (`@pawlink/auth`'s RATE_LIMIT_BUCKETS). */
export const RATE_LIMIT_BUCKET = 'x-pawlink-rate-limit-bucket';
