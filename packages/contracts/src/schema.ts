/**
 * JSON Schema objects that carry the TypeScript type of their instances (docs/adr/0016). What a
 * builder returns is the plain JSON Schema 2020-12 object the OpenAPI documents hold, written as
 * the documents always wrote it (`type: ['string', 'null']` for a nullable, `oneOf` for a choice);
 * the type rides along as a phantom property that never exists at run time, so `Static<typeof S>`
 * is the type of what S describes and a response typed by it cannot drift from its documentation.
 */

/** A JSON Schema 2020-12 object, typed loosely. */
export type JsonSchema = Record<string, unknown>;

declare const INSTANCE: unique symbol;

/** A JSON Schema whose instances are `T` (`T` is a phantom: the object holds only JSON Schema keywords). */
export type Schema<T> = JsonSchema & { readonly [INSTANCE]?: T };

/** The type of what a schema describes. */
export type Static<S> = S extends { readonly [INSTANCE]?: infer T } ? T : never;

/** Keywords a builder passes through unchanged: annotations and the constraints of the type at hand. */
type Keywords = Record<string, unknown>;

const typed = <T>(schema: JsonSchema): Schema<T> => schema;

export const string = (keywords: Keywords = {}): Schema<string> => typed({ type: 'string', ...keywords });
/** An ISO 8601 date-time, as JSON carries a Date. */
export const dateTime = (keywords: Keywords = {}): Schema<string> =>
  typed({ type: 'string', format: 'date-time', ...keywords });
export const integer = (keywords: Keywords = {}): Schema<number> => typed({ type: 'integer', ...keywords });
export const number = (keywords: Keywords = {}): Schema<number> => typed({ type: 'number', ...keywords });
export const boolean = (keywords: Keywords = {}): Schema<boolean> => typed({ type: 'boolean', ...keywords });
export const literal = <const T extends string | number | boolean>(value: T, keywords: Keywords = {}): Schema<T> =>
  typed({ const: value, ...keywords });
export const oneOfValues = <const T extends readonly (string | number)[]>(
  values: T,
  keywords: Keywords = {},
): Schema<T[number]> => typed({ enum: values, ...keywords });

/**
 * `schema` or null: a single `type` becomes `[type, 'null']` (how the documents write a nullable
 * scalar); any other schema becomes `oneOf: [schema, {type: 'null'}]`.
 */
export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  const type = schema.type;
  if (typeof type === 'string') return typed({ ...schema, type: [type, 'null'] });
  return typed({ oneOf: [schema, { type: 'null' }] });
}

export const array = <T>(items: Schema<T>, keywords: Keywords = {}): Schema<T[]> =>
  typed({ type: 'array', ...keywords, items });

type Properties = Record<string, Schema<unknown>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** The instance type of an object with these properties, those named in `Optional` optional. */
export type ObjectOf<P extends Properties, Optional extends keyof P = never> = Simplify<
  { -readonly [K in Exclude<keyof P, Optional>]: Static<P[K]> } & { -readonly [K in Optional]?: Static<P[K]> }
>;

export interface ObjectOptions<Optional> extends Keywords {
  /** Properties that may be left out; every other one is `required`, in the order written. */
  optional?: readonly Optional[];
  /** false (the default): no other property; a schema: every other property is one (a map); true: anything else. */
  additionalProperties?: boolean | Schema<unknown>;
}

/** An object: its properties in order, every one required unless named in `optional`; closed unless said otherwise. */
export function object<P extends Properties, const Optional extends keyof P & string = never>(
  properties: P,
  { optional = [], additionalProperties = false, ...keywords }: ObjectOptions<Optional> = {},
): Schema<ObjectOf<P, Optional>> {
  const skipped = new Set<string>(optional);
  return typed({
    type: 'object',
    ...keywords,
    required: Object.keys(properties).filter((name) => !skipped.has(name)),
    properties,
    ...(additionalProperties === true ? {} : { additionalProperties }),
  });
}

/** A map of names to values of one schema (`additionalProperties`). */
export const record = <T>(values: Schema<T>, keywords: Keywords = {}): Schema<Record<string, T>> =>
  typed({ type: 'object', ...keywords, additionalProperties: values });

/** One of several schemas (`oneOf`): exactly one must match. */
export const oneOf = <S extends Array<Schema<unknown>>>(...schemas: S): Schema<Static<S[number]>> =>
  typed({ oneOf: schemas });

/** A reference to a component schema (`#/components/schemas/<name>`), typed as the schema it names. */
export const ref = <T>(name: string, _target: Schema<T>): Schema<T> => typed({ $ref: `#/components/schemas/${name}` });

/**
 * `base` (a reference) with more properties, nothing else (`unevaluatedProperties: false`): how the
 * documents extend a component, e.g. a record with its visits.
 */
export function extend<T, P extends Properties, const Optional extends keyof P & string = never>(
  base: Schema<T>,
  properties: P,
  { optional = [] }: { optional?: readonly Optional[] } = {},
): Schema<Simplify<T & ObjectOf<P, Optional>>> {
  const skipped = new Set<string>(optional);
  return typed({
    allOf: [base],
    required: Object.keys(properties).filter((name) => !skipped.has(name)),
    properties,
    unevaluatedProperties: false,
  });
}

/** A value of any JSON type that the schema describes in prose only (a typed escape for an opaque part). */
export const opaque = <T>(schema: JsonSchema): Schema<T> => typed(schema);
