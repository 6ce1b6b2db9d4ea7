import type { ApiKeyFlag } from '../common.js';
import type { ErrorName } from '../errors.js';
import type { Schema } from '../schema.js';
import { errorResponses, RATE_LIMIT_HEADERS } from './error-schemas.js';
import { header, requestIdHeader } from './headers.js';
import {
  RATE_LIMIT_BUCKET,
  type JsonSchema,
  type MediaTypeObject,
  type OperationObject,
  type ParameterObject,
  type PathItemObject,
  type RequestBodyObject,
  type ResponseObject,
} from './types.js';

/** Who may call an operation: anyone, anyone (a presented key must be valid), or a key with a flag. */
export type Access = 'public' | 'optional-key' | { key: ApiKeyFlag };

export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /** The rate-limit bucket (`@pawlink/auth`): adds 429 1000/1001 and the X-RateLimit-* headers. */
  rateLimit?: string;
  /** Behind the read-only switch: adds 503 1003. */
  readOnlyAffected?: boolean;
  /** Reads a request body: adds 415 1014, 400 1026 and 413 1027. */
  readsBody?: boolean;
  /** Asks Redis or MySQL (default): adds 503 1004 and 500 0. */
  usesDependencies?: boolean;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  /** Success and non-JSON answers, by status. */
  responses: Record<string, ResponseObject>;
  /** The registry codes this operation itself can answer (guards' codes are added from `access` and the flags above). */
  errors?: ErrorName[];
  /** Requests the service makes because of this operation (OpenAPI `callbacks`). */
  callbacks?: Record<string, Record<string, PathItemObject>>;
}

const KEY_ERRORS: ErrorName[] = ['INVALID_API_KEY', 'INACTIVE_API_KEY', 'DISABLED_API_KEY', 'RATE_LIMITED_ROUTE'];

/** The registry codes the guards and the shared stack add to an operation. */
function impliedErrors(spec: OperationSpec): ErrorName[] {
  // Every route refuses a bracketed or repeated query parameter (docs/api.md §1), before anything else.
  const errors: ErrorName[] = ['INVALID_QUERY_VALUE'];
  if (spec.access === 'optional-key') errors.push(...KEY_ERRORS, 'DEPENDENCY_UNAVAILABLE');
  if (typeof spec.access === 'object')
    errors.push('API_KEY_REQUIRED', ...KEY_ERRORS, 'MISSING_FLAG', 'DEPENDENCY_UNAVAILABLE');
  if (spec.rateLimit) errors.push('RATE_LIMITED_ROUTE', 'RATE_LIMITED_GLOBAL');
  if (spec.readOnlyAffected) errors.push('READ_ONLY');
  if (spec.readsBody) errors.push('UNSUPPORTED_BODY_ENCODING', 'MALFORMED_BODY', 'BODY_TOO_LARGE');
  if (spec.usesDependencies !== false) errors.push('DEPENDENCY_UNAVAILABLE', 'INTERNAL_ERROR');
  return errors;
}

function mergeMedia(a: MediaTypeObject, b: MediaTypeObject): MediaTypeObject {
  if (!a.schema || !b.schema) return { ...a, ...b };
  return { schema: { oneOf: [a.schema, b.schema] } };
}

/** Two descriptions of one status (say a plain-text 404 and a JSON 404) as one response. */
export function mergeResponses(a: ResponseObject, b: ResponseObject): ResponseObject {
  const headers = { ...a.headers, ...b.headers };
  for (const name of Object.keys(headers)) {
    const inA = a.headers?.[name] as { required?: boolean } | undefined;
    const inB = b.headers?.[name] as { required?: boolean } | undefined;
    headers[name] = {
      ...(headers[name] as object),
      required: inA?.required === true && inB?.required === true,
    } as (typeof headers)[string];
  }
  const content: Record<string, MediaTypeObject> = { ...a.content };
  for (const [type, media] of Object.entries(b.content ?? {}))
    content[type] = content[type] ? mergeMedia(content[type], media) : media;
  return {
    description: `${a.description} Or: ${b.description}`,
    headers,
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

const SECURITY: Record<'public' | 'optional-key' | 'key', Array<Record<string, string[]>>> = {
  public: [],
  'optional-key': [{}, { ApiKey: [] }],
  key: [{ ApiKey: [] }],
};

/** An operation with every answer it can give: its own, its guards', and the shared stack's. */
export function operation(spec: OperationSpec): OperationObject {
  const ownResponses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    const headers = { ...requestIdHeader(), ...response.headers };
    if (spec.rateLimit && Number(status) < 400) for (const name of RATE_LIMIT_HEADERS) headers[name] ??= header(name);
    ownResponses[status] = { ...response, headers };
  }
  const failures = errorResponses([...impliedErrors(spec), ...(spec.errors ?? [])]);
  const responses: Record<string, ResponseObject> = { ...ownResponses };
  for (const [status, failure] of Object.entries(failures))
    responses[status] = responses[status] ? mergeResponses(responses[status], failure) : failure;
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
  const flag = typeof spec.access === 'object' ? spec.access.key : undefined;
  const accessNote = flag
    ? `Needs an API key with the \`${flag}\` flag.`
    : spec.access === 'optional-key'
      ? 'Public; a key may be sent (then it must be valid, and it is what is rate limited).'
      : 'Public.';
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    description: [
      spec.description,
      accessNote,
      spec.rateLimit ? `Rate-limit bucket: \`${spec.rateLimit}\`.` : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: spec.tags,
    security: SECURITY[flag ? 'key' : spec.access === 'optional-key' ? 'optional-key' : 'public'],
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: sorted,
    ...(spec.callbacks ? { callbacks: spec.callbacks } : {}),
    ...(spec.rateLimit ? { [RATE_LIMIT_BUCKET]: spec.rateLimit } : {}),
  };
}

/** The body of a success that carries `data` (docs/api.md §1): `{ success: true, data }` and nothing else. */
export const successWith = <T>(data: Schema<T>): Schema<{ success: true; data: T }> => ({
  type: 'object',
  required: ['success', 'data'],
  properties: { success: { const: true }, data },
  additionalProperties: false,
});

declare const BODY: unique symbol;
/** A JSON response whose body is a `T` (a phantom type, for the handler that answers it). */
export type JsonResponse<T> = ResponseObject & { readonly [BODY]?: T };
/** The body type of a JSON response. */
export type BodyOf<R> = R extends { readonly [BODY]?: infer T } ? T : never;

/** A JSON response. */
export const json = <T = unknown>(
  description: string,
  schema: Schema<T>,
  headers?: ResponseObject['headers'],
): JsonResponse<T> => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});

/** A response with a body of another media type (HTML, text, image bytes); its body is not a JSON document. */
export const media = (description: string, types: string[], headers?: ResponseObject['headers']): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' } }])),
});

/** A response without a body (204, 302). */
export const empty = (description: string, headers?: ResponseObject['headers']): ResponseObject => ({
  description,
  ...(headers ? { headers } : {}),
});

export const pathParameter = (
  name: string,
  description: string,
  schema: JsonSchema = { type: 'string' },
): ParameterObject => ({ name, in: 'path', required: true, description, schema });
export const queryParameter = (
  name: string,
  description: string,
  schema: JsonSchema = { type: 'string' },
): ParameterObject => ({ name, in: 'query', required: false, description, schema });

/** A JSON (or form) request body. */
export const jsonBody = (description: string, schema: JsonSchema, required = true): RequestBodyObject => ({
  description,
  required,
  content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
});
