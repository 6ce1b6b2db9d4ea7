import type { ErrorName, JsonSchema } from '@pawlink/contracts';

/** Where a field is read from: the path, the query string or the body. */
export type FieldLocation = 'params' | 'query' | 'body';

/** What a field's parser may read besides the value: the app's settings and the request's headers. */
export interface FieldContext<C = unknown> {
  /** The app's settings, given once when its endpoints are mounted (never read from the request or app.locals). */
  readonly config: C;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * One request field (docs/adr/0016): how it is documented, which contract codes it answers, and
 * its parser, which returns the value the handler reads (a number, a Date, a normalised URL) or
 * throws the failure the contract gives (`fail('INVALID_URL', …)` or an ApiError). A required field's
 * parser also sees an absent value (undefined) and answers its code or its default.
 */
export interface Field<T, C = unknown> {
  /** The value as sent, for the OpenAPI document. */
  readonly schema: JsonSchema;
  /** A parameter's description in the document (path and query fields). */
  readonly description?: string;
  /** The contract codes the parser answers, for the document. */
  readonly codes: readonly ErrorName[];
  readonly parse: (value: unknown, context: FieldContext<C>) => T;
  /** Set on an optional field: which absent values leave it out of the input without parsing it. */
  readonly absent?: 'undefined' | 'undefined-or-null';
}

/** A field the input may lack: left out when absent (and when null, for `undefined-or-null`). */
export interface OptionalField<T, C = unknown> extends Field<T, C> {
  readonly absent: 'undefined' | 'undefined-or-null';
}

/** A field. */
export const field = <T, C = unknown>(spec: Omit<Field<T, C>, 'absent'>): Field<T, C> => spec;

/** The same field, left out of the input when absent (undefined; with `nullMeansAbsent`, null too). */
export const optional = <T, C>(
  required: Field<T, C>,
  { nullMeansAbsent = false }: { nullMeansAbsent?: boolean } = {},
): OptionalField<T, C> => ({ ...required, absent: nullMeansAbsent ? 'undefined-or-null' : 'undefined' });

/** A field and where the request carries it. */
export type Located<F> = F & { readonly in: FieldLocation };

/** The field read from the path (`:name`). */
export const inPath = <F extends Field<unknown, never>>(f: F): Located<F> => ({ ...f, in: 'params' });
/** The field read from the query string. */
export const inQuery = <F extends Field<unknown, never>>(f: F): Located<F> => ({ ...f, in: 'query' });
/** The name of a body field that is the whole body (express-validator's `body()`): the document's body schema is its schema. */
export const WHOLE_BODY = '';

/** The field read from the body (JSON or form); named WHOLE_BODY (`''`), the body itself. */
export const inBody = <F extends Field<unknown, never>>(f: F): Located<F> => ({ ...f, in: 'body' });

/** A request's fields by name, in the order they are checked (the first that fails is the one answered). */
export type Fields<C = unknown> = Record<string, Located<Field<unknown, C>>>;
/** Body fields by name (an object checked on its own: a bulk create's item). */
export type BodyFields<C = unknown> = Record<string, Field<unknown, C>>;

/** The value a field's parser returns. */
export type FieldValue<F> = F extends Field<infer T, never> ? T : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What the handler reads of a set of fields: each parsed value, optional fields' keys optional. */
export type InputOf<F> = Simplify<
  { [K in keyof F as F[K] extends { absent: string } ? never : K]: FieldValue<F[K]> } & {
    [K in keyof F as F[K] extends { absent: string } ? K : never]?: FieldValue<F[K]>;
  }
>;

/** Whether a request's body came as an HTML form, whose values are all strings (numbers are then written in digits). */
export function isFormBody(headers: FieldContext['headers']): boolean {
  const contentType = headers['content-type'];
  return typeof contentType === 'string' && /^\s*application\/x-www-form-urlencoded\b/i.test(contentType);
}

/** The body's JSON Schema for a set of body fields: required unless optional, in the order declared. */
export function objectSchemaOf(fields: BodyFields<never>, { closed = false }: { closed?: boolean } = {}): JsonSchema {
  return {
    type: 'object',
    required: Object.entries(fields)
      .filter(([, f]) => f.absent === undefined)
      .map(([name]) => name),
    properties: Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.schema])),
    ...(closed ? { additionalProperties: false } : {}),
  };
}
