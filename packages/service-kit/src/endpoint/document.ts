import { Errors, type ErrorName } from '@pawlink/contracts';
import {
  MULTI_SEGMENT,
  operation,
  pathParameter,
  queryParameter,
  serviceDocument,
  type OpenApiDocument,
  type OperationObject,
  type OperationSpec,
  type PathItemObject,
  type RequestBodyObject,
  type ServiceDocumentSpec,
} from '@pawlink/contracts/openapi';
import type { AnyEndpoint } from './endpoint.js';
import { objectSchemaOf, WHOLE_BODY, type BodyFields, type Fields } from './field.js';
import { VALIDATION } from './guards.js';

/** Express 5 route path → OpenAPI template: `:code` → `{code}`, `*splat` → `{splat*}`, `\+` → `+`. */
export function templateOf(expressPath: string): string {
  return expressPath
    .replace(/\\(.)/g, '$1')
    .replace(/\*([A-Za-z_$][\w$]*)/g, '{$1*}')
    .replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');
}

/**
 * The parameter of an endpoint's spanning path (`/*category` → `category`), which must be the same
 * path as its own with that last parameter spanning segments.
 */
function spanningName(endpoint: AnyEndpoint<never>): string {
  const spanning = /\*([A-Za-z_$][\w$]*)$/.exec(endpoint.spanningPath ?? '');
  const name = spanning?.[1];
  if (
    name === undefined ||
    templateOf(endpoint.spanningPath!).replace(`{${name}*}`, `{${name}}`) !== templateOf(endpoint.path)
  )
    throw new Error(`${endpoint.operationId}: spanningPath must be its path with the last parameter as \`*name\``);
  return name;
}

function requestBodyOf(endpoint: AnyEndpoint<never>, fields: Fields<unknown>): RequestBodyObject | undefined {
  const bodyFields: BodyFields<never> = Object.fromEntries(Object.entries(fields).filter(([, f]) => f.in === 'body'));
  if (Object.keys(bodyFields).length === 0) return undefined;
  if (!endpoint.body) throw new Error(`${endpoint.operationId}: body fields need a body description`);
  const whole = bodyFields[WHOLE_BODY];
  if (whole && Object.keys(bodyFields).length > 1)
    throw new Error(`${endpoint.operationId}: a whole-body field is the only body field`);
  const schema = whole ? whole.schema : objectSchemaOf(bodyFields, { closed: endpoint.onlyBodyFieldsOf !== undefined });
  const media =
    endpoint.body.media === 'json' ? ['application/json'] : ['application/json', 'application/x-www-form-urlencoded'];
  return {
    description: endpoint.body.description,
    required: true,
    content: Object.fromEntries(media.map((type) => [type, { schema }])),
  };
}

/** The registry codes an endpoint answers itself: its fields', its handler's, and 1017 when its body is closed. */
function ownErrors(endpoint: AnyEndpoint<never>, fields: Fields<unknown>): ErrorName[] {
  const codes = new Set<ErrorName>(Object.values(fields).flatMap((f) => f.codes));
  if (endpoint.onlyBodyFieldsOf !== undefined) codes.add('UNKNOWN_BODY_FIELD');
  for (const name of endpoint.errors ?? []) codes.add(name);
  return [...codes].sort((a, b) => Errors[a].code - Errors[b].code);
}

/**
 * An endpoint's OpenAPI operation, through the same `operation()` the hand-written documents use:
 * its guards say who may call it and which codes and headers they add, its fields are its
 * parameters and body (each with the schema it documents) and their codes its 400s.
 */
export function endpointOperation(endpoint: AnyEndpoint<never>): OperationObject {
  const spec: OperationSpec = {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: endpoint.tags,
    access: 'public',
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- AnyEndpoint: every endpoint's responses are a Record<number, ResponseObject>
    responses: endpoint.responses,
  };
  for (const step of endpoint.guards) if (step !== VALIDATION) Object.assign(spec, step.doc);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- AnyEndpoint: every endpoint's fields are Fields of its app's config
  const fields: Fields<unknown> = endpoint.fields;
  const parameters = Object.entries(fields)
    .filter(([, f]) => f.in !== 'body')
    .sort(([, a], [, b]) => Number(b.in === 'params') - Number(a.in === 'params'))
    .map(([name, f]) =>
      f.in === 'params'
        ? pathParameter(name, f.description ?? '', f.schema)
        : queryParameter(name, f.description ?? '', f.schema),
    )
    .concat(endpoint.parameters ?? []);
  const requestBody = requestBodyOf(endpoint, fields);
  const errors = ownErrors(endpoint, fields);
  return operation({
    ...spec,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    ...(endpoint.usesDependencies === false ? { usesDependencies: false } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    ...(errors.length > 0 ? { errors } : {}),
    ...(endpoint.callbacks ? { callbacks: endpoint.callbacks } : {}),
  });
}

/**
 * The paths of a set of endpoints, each path item holding its methods' operations. `legacy` are
 * hand-written path objects of endpoints not converted yet (images, thumbs while they move): they
 * are kept as written; a path both declare is an error, so no operation is described twice.
 */
export function endpointPaths(
  endpoints: ReadonlyArray<AnyEndpoint<never>>,
  legacy: Record<string, PathItemObject> = {},
): Record<string, PathItemObject> {
  const paths: Record<string, PathItemObject> = {};
  for (const endpoint of endpoints) {
    const template = templateOf(endpoint.path);
    if (legacy[template]?.[endpoint.method])
      throw new Error(`${endpoint.method.toUpperCase()} ${template} is both declared and hand-written`);
    const item: PathItemObject = (paths[template] ??= {});
    if (item[endpoint.method]) throw new Error(`${endpoint.method.toUpperCase()} ${template} is declared twice`);
    if (endpoint.spanningPath !== undefined) item[MULTI_SEGMENT] = spanningName(endpoint);
    item[endpoint.method] = endpointOperation(endpoint);
  }
  for (const [template, item] of Object.entries(legacy)) paths[template] = { ...item, ...paths[template] };
  return paths;
}

/** A service's document from its endpoints (and the legacy path objects of those not converted yet). */
export function endpointsDocument(
  spec: Omit<ServiceDocumentSpec, 'paths'> & {
    endpoints: ReadonlyArray<AnyEndpoint<never>>;
    legacyPaths?: Record<string, PathItemObject>;
  },
): OpenApiDocument {
  const { endpoints, legacyPaths, ...rest } = spec;
  return serviceDocument({ ...rest, paths: endpointPaths(endpoints, legacyPaths) });
}
