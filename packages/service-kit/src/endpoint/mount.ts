import type { Express, RequestHandler } from 'express';
import type { QueryListRule } from '../http/query-shape.js';
import { onlyMethods } from '../only-methods.js';
import { validate, validated } from '../validation/validate.js';
import { chainsOf, inputOf } from './chains.js';
import type { AnyEndpoint } from './endpoint.js';
import type { Fields, InputOf } from './field.js';
import { VALIDATION } from './guards.js';

/**
 * The route of an endpoint on `app`: its guards in order, the validation of its fields (express-
 * validator chains made from them, with `deps.config` for the parsers), its handler; other methods
 * 405 when the endpoint says so. Mount endpoints in the order their patterns need (fixed words
 * before `/:code`).
 */
export function mountEndpoint<D extends { config: unknown }>(app: Express, endpoint: AnyEndpoint<D>, deps: D): void {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- AnyEndpoint: its fields are Fields of D's config
  const chains = chainsOf(endpoint.fields, deps.config, endpoint.onlyBodyFieldsOf);
  const validation: RequestHandler | undefined = chains.length > 0 ? validate(...chains) : undefined;
  const steps: RequestHandler[] = [];
  let checked = false;
  for (const step of endpoint.guards) {
    if (step === VALIDATION) {
      if (validation) steps.push(validation);
      checked = true;
    } else steps.push(step.use(deps));
  }
  if (!checked && validation) steps.push(validation);
  const handle = endpoint.handler(deps);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- AnyEndpoint: its fields are a record
  const names = Object.keys(endpoint.fields);
  const whole = endpoint.onlyBodyFieldsOf !== undefined;
  const answer: RequestHandler = async (req, res) => {
    // The fields' parsers made every value of this record; their types are InputOf<the fields>.
    const input: InputOf<typeof endpoint.fields> = whole ? inputOf(validated(req), names) : validated(req);
    const reply: unknown = await handle({ input, req, res });
    if (typeof reply === 'object' && reply !== null && 'status' in reply && typeof reply.status === 'number')
      res.status(reply.status).json('body' in reply ? reply.body : undefined);
  };
  app[endpoint.method](endpoint.path, ...steps, answer);
  if (endpoint.spanningPath !== undefined) app[endpoint.method](endpoint.spanningPath, ...steps, answer);
  if (endpoint.refuseOtherMethods) {
    const method = endpoint.method.toUpperCase();
    app.all(endpoint.path, onlyMethods(...(method === 'GET' ? ['GET', 'HEAD'] : [method])));
  }
}

/**
 * The body limits endpoints declare above BODY_LIMIT_BYTES, as createServiceApp's `bodyLimits`
 * takes them (`"POST /create/bulk"`); only an endpoint with a fixed path may declare one.
 */
export function bodyLimitsOf(endpoints: ReadonlyArray<AnyEndpoint<never>>): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const endpoint of endpoints) {
    if (endpoint.bodyLimitBytes === undefined) continue;
    if (/[:*\\]/.test(endpoint.path)) throw new Error(`${endpoint.path}: a body limit needs a fixed path`);
    limits[`${endpoint.method.toUpperCase()} ${endpoint.path}`] = endpoint.bodyLimitBytes;
  }
  return limits;
}

/**
 * The query parameters endpoints declare as lists (`type: array`, OpenAPI's repeated form), as
 * createServiceApp's `queryLists` takes them: the only parameters the strict query check lets
 * repeat. Only an endpoint with a fixed path may declare one.
 */
export function queryListsOf(endpoints: ReadonlyArray<AnyEndpoint<never>>): QueryListRule[] {
  const rules: QueryListRule[] = [];
  for (const endpoint of endpoints) {
    const names = Object.entries(endpoint.fields as Fields)
      .filter(([, f]) => f.in === 'query' && f.schema.type === 'array')
      .map(([name]) => name);
    if (names.length === 0) continue;
    if (/[:*\\]/.test(endpoint.path)) throw new Error(`${endpoint.path}: a list parameter needs a fixed path`);
    rules.push({ path: new RegExp(`^${endpoint.path.replace(/[.+?^${}()|[\]]/g, '\\$&')}$`), names });
  }
  return rules;
}
