import type { ErrorName } from '@pawlink/contracts';
import type { BodyOf, ParameterObject, PathItemObject, ResponseObject } from '@pawlink/contracts/openapi';
import type { Request, Response } from 'express';
import type { Fields, InputOf } from './field.js';
import type { Step } from './guards.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The settings an app's fields are parsed with: its dependencies' `config`. */
export type ConfigOf<D> = D extends { config: infer C } ? C : unknown;

/** The answer a handler returns for a JSON response it declares: the status and a body of that status's schema. */
export type Reply<R> = {
  [K in keyof R]: unknown extends BodyOf<R[K]> ? never : { status: K; body: BodyOf<R[K]> };
}[keyof R];

/** What a handler is given: the validated input (types from the fields), the request and the response. */
export interface Call<I> {
  input: I;
  req: Request;
  res: Response;
}

/**
 * A handler: returns a Reply (sent as JSON with its status) or writes the response itself (a
 * redirect, a page, bytes) and returns nothing.
 */
export type Handler<I, R> = (call: Call<I>) => Promise<Reply<R> | void> | Reply<R> | void;

/** How the body is documented. */
export interface BodyDoc {
  description: string;
  /** `json-or-form` (default): JSON or an HTML form; `json`: a list of objects has no form. */
  media?: 'json' | 'json-or-form';
}

/**
 * One endpoint, declared once (docs/adr/0016): the route, its guards in order, its fields (each
 * with its contract code, checked in the order written), its responses by status and its handler.
 * `mountEndpoint` makes the Express route from it and `endpointOperation` its OpenAPI operation.
 */
export interface Endpoint<D, F extends Fields<ConfigOf<D>> = Fields<ConfigOf<D>>, R = Record<number, ResponseObject>> {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  method: Method;
  /** The Express path (`/:code.json`, `/:code\\+`); the document's template is made from it. */
  path: string;
  /**
   * The same endpoint at a second path whose last parameter spans segments (Express `/*category`
   * beside `/:category`): mounted right after `path` with the same steps, its parameter given to
   * the field's parser as Express gives it (the segments, an array). Documented once, on `path`'s
   * template, marked `x-pawlink-multi-segment`.
   */
  spanningPath?: string;
  /** Answer other methods on this path 405 with `Allow` (a fixed word: `/create`, `/links`). */
  refuseOtherMethods?: boolean;
  /** This endpoint's bodies may be larger than BODY_LIMIT_BYTES, up to this (createServiceApp's `bodyLimits`, by `bodyLimitsOf`). */
  bodyLimitBytes?: number;
  /** In order; validation runs after the last unless `VALIDATION` stands where it runs. */
  guards: ReadonlyArray<Step<D>>;
  fields: F;
  body?: BodyDoc;
  /** Documented parameters no field checks (a request header such as `If-None-Match`), after the fields'. */
  parameters?: ParameterObject[];
  /** The body may hold only its fields (1017, naming the endpoint as this says: `PATCH`), checked just before the first body field. */
  onlyBodyFieldsOf?: string;
  responses: R;
  /** The registry codes the handler's service answers (the fields' and guards' codes are added). */
  errors?: ErrorName[];
  /** False when the operation asks neither Redis nor MySQL (no 503 1004, no 500). */
  usesDependencies?: boolean;
  callbacks?: Record<string, Record<string, PathItemObject>>;
  handler: (deps: D) => Handler<InputOf<F>, R>;
}

/** Any endpoint of an app whose dependencies are `D`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the input and response types of each endpoint are its own; a list of them is read only through their declarations
export type AnyEndpoint<D> = Endpoint<D, any, any>;

/**
 * Declares an endpoint of an app whose dependencies are `D`: `defineEndpoint<AppDeps>()({...})`.
 * The input type comes from the fields and each reply's type from its status's schema.
 */
export const defineEndpoint =
  <D>() =>
  <const F extends Fields<ConfigOf<D>>, const R extends Record<number, ResponseObject>>(
    endpoint: Endpoint<D, F, R>,
  ): Endpoint<D, F, R> =>
    endpoint;
