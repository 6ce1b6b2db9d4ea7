import { Errors, type ErrorDefinition, type ErrorName } from '../errors.js';
import { header, requestIdHeader, type HeaderName } from './headers.js';
import type { HeaderObject, JsonSchema, MediaTypeObject, Reference, ResponseObject } from './types.js';

export const schemaRef = (name: string): Reference => ({ $ref: `#/components/schemas/${name}` });

/** The component name of one registry error's body schema: `Error1073`. */
export const errorSchemaName = (name: ErrorName): string => `Error${Errors[name].code}`;

/** The rate-limit headers every limited route sends (docs/api.md §1); Retry-After only when limited. */
export const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Reset-After',
  'X-RateLimit-Bucket',
] as const;

interface ErrorDetail {
  /** Properties this code's body carries beyond success/error/code. */
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** Headers that always come with this code. */
  headers?: HeaderName[];
}

/**
 * What some codes add to the shared failure body (docs/api.md §1: `info`, `extra`, `status`) and the
 * headers they always send. Every other code is exactly `{success:false, error, code}`.
 */
const ERROR_DETAILS: Partial<Record<ErrorName, ErrorDetail>> = {
  RATE_LIMITED_ROUTE: {
    properties: { info: schemaRef('RateLimitInfo') },
    required: ['info'],
    headers: [...RATE_LIMIT_HEADERS, 'Retry-After'],
  },
  RATE_LIMITED_GLOBAL: {
    properties: { info: schemaRef('RateLimitInfo') },
    required: ['info'],
    headers: [...RATE_LIMIT_HEADERS, 'Retry-After', 'X-RateLimit-Global'],
  },
  DISABLED_API_KEY: {
    properties: {
      extra: {
        type: 'object',
        required: ['reason'],
        properties: { reason: { type: 'string' } },
        additionalProperties: false,
      },
    },
    required: ['extra'],
  },
  BULK_ABOVE_RATE_LIMIT: {
    properties: {
      extra: {
        type: 'object',
        required: ['bucket', 'limit', 'windowSeconds', 'units', 'maxItems'],
        properties: {
          bucket: { type: 'string', description: "The key's bucket the items count against." },
          limit: { type: 'integer', minimum: 1, description: 'What the bucket allows per window, for this key.' },
          windowSeconds: { type: 'number' },
          units: { type: 'integer', description: 'The items of the request.' },
          maxItems: { type: 'integer', minimum: 1, description: 'The most one request can send.' },
        },
        additionalProperties: false,
      },
    },
    required: ['extra'],
  },
  BOARD_SHARE_USED: { headers: ['Retry-After'] },
  METHOD_NOT_ALLOWED: { headers: ['Allow'] },
  THUMBNAIL_ERROR: { properties: { status: { const: 'error' } }, required: ['status'] },
  THUMBNAIL_TIMEOUT: { properties: { status: { const: 'timeout' } }, required: ['status'] },
  SHORT_URL_EXPIRED: {
    properties: {
      extra: {
        type: 'object',
        required: ['expiredAt', 'reason'],
        properties: {
          expiredAt: { type: 'string', format: 'date-time' },
          reason: { enum: ['expiresAt', 'maxVisits'] },
        },
        additionalProperties: false,
      },
    },
    required: ['extra'],
  },
};

/** The headers a code always sends: its own, and `Retry-After` where the registry gives one (every 503). */
function alwaysSent(name: ErrorName): HeaderName[] {
  const definition: ErrorDefinition = Errors[name];
  const own = ERROR_DETAILS[name]?.headers ?? [];
  return definition.retryAfterSeconds === undefined || own.includes('Retry-After') ? own : [...own, 'Retry-After'];
}

/** `HTTP 431 (or 414)`: the registry status, and the others docs/api.md gives the code. */
function statusText(definition: ErrorDefinition): string {
  const others = definition.otherStatuses ?? [];
  return `HTTP ${definition.status}${others.length > 0 ? ` (or ${others.join(', ')})` : ''}`;
}

/**
 * One body schema per registry code, generated from `Errors`, so numbers, statuses and default
 * messages cannot drift from the registry: `code` is a const, the default message is the example
 * (routes may say more, so `error` is any string).
 */
export function errorSchemas(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(Errors) as Array<[ErrorName, (typeof Errors)[ErrorName]]>) {
    const detail = ERROR_DETAILS[name] ?? {};
    schemas[errorSchemaName(name)] = {
      title: `${def.code} ${name}`,
      description: `${statusText(def)}. ${def.message}${'retired' in def && def.retired ? ' (retired: no longer raised)' : ''}`,
      allOf: [schemaRef('ErrorResponse')],
      properties: {
        code: { const: def.code },
        error: { type: 'string', examples: [def.message] },
        ...detail.properties,
      },
      ...(detail.required ? { required: detail.required } : {}),
    };
  }
  return schemas;
}

/** A failure body allowing exactly what its code's schema names (JSON Schema 2020-12 `unevaluatedProperties`). */
function failureSchema(
  names: readonly ErrorName[],
  extra?: { properties: Record<string, JsonSchema>; required?: string[] },
): JsonSchema {
  const refs = names.map((name) => schemaRef(errorSchemaName(name)));
  const choice: JsonSchema = refs.length === 1 ? { allOf: refs } : { oneOf: refs };
  return {
    ...choice,
    ...(extra ? { properties: extra.properties, required: extra.required ?? [] } : {}),
    unevaluatedProperties: false,
  };
}

/** Codes listed in a response's description, so a reader sees them without opening schemas. */
const describeCodes = (names: readonly ErrorName[]): string =>
  names.map((name) => `${Errors[name].code} ${Errors[name].message}`).join(' · ');

export interface ErrorResponseOptions {
  /** Extra body properties on every code of this response (e.g. `/ready`'s `checks`). */
  extra?: { properties: Record<string, JsonSchema>; required?: string[] };
  /** Added to the generated description. */
  note?: string;
}

/**
 * The failure responses for a set of registry codes, grouped by the registry's HTTP status: one
 * response per status whose JSON body is one of those codes' schemas, with the headers each code
 * always sends (required when every code of the status sends it).
 */
export function errorResponses(
  names: readonly ErrorName[],
  options: ErrorResponseOptions = {},
): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of new Set(names)) {
    const status = Errors[name].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    codes.sort((a, b) => Errors[a].code - Errors[b].code);
    const headerNames = new Set(codes.flatMap(alwaysSent));
    const headers: Record<string, HeaderObject> = requestIdHeader();
    for (const name of headerNames)
      headers[name] = header(
        name,
        codes.every((code) => alwaysSent(code).includes(name)),
      );
    const media: MediaTypeObject = { schema: failureSchema(codes, options.extra) };
    responses[String(status)] = {
      description: `${describeCodes(codes)}${options.note ? `. ${options.note}` : ''}`,
      headers,
      content: { 'application/json': media },
    };
  }
  return responses;
}
