import { body, param, query, type ValidationChain } from 'express-validator';
import type { Request } from 'express';
import { onlyBodyFields } from '../validation/body-fields.js';
import { runValidation } from '../validation/run-validation.js';
import { parsedBy } from '../validation/validate.js';
import type { Field, FieldLocation, Fields, InputOf } from './field.js';

const AT: Record<FieldLocation, typeof body> = { params: param, query, body };

/**
 * The express-validator chain of one field: optional when the field is, then its parser as one
 * check-and-convert step (`parsedBy`), which keeps the converted value for the handler or fails
 * with the parser's contract code. `config` is the app's settings, handed to every parse.
 */
export function chainOf<C>(location: FieldLocation, name: string, f: Field<unknown, C>, config: C): ValidationChain {
  let chain = AT[location](name);
  if (f.absent === 'undefined') chain = chain.optional();
  else if (f.absent === 'undefined-or-null') chain = chain.optional({ values: 'null' });
  return parsedBy(chain, (value, { req }) => f.parse(value, { config, headers: (req as Request).headers ?? {} }));
}

/**
 * The chains of a request, in the contract's order: each field in the order written and, with
 * `onlyBodyFieldsOf` (the endpoint's name in the message), the check that the body holds only its
 * fields (400 1017) just before the first body field, so a query parameter written first is still
 * answered first (POST /create's `editable`); first of all when the endpoint takes no body field.
 */
export function chainsOf<C>(fields: Fields<C>, config: C, onlyBodyFieldsOf?: string): ValidationChain[] {
  const entries = Object.entries(fields);
  const chains = entries.map(([name, f]) => chainOf(f.in, name, f, config));
  if (onlyBodyFieldsOf !== undefined) {
    const bodyNames = entries.filter(([, f]) => f.in === 'body').map(([name]) => name);
    const firstBody = entries.findIndex(([, f]) => f.in === 'body');
    // With no body field at all (PUT /:id/:type of thumbs), any body field is the first thing refused.
    chains.splice(firstBody === -1 ? 0 : firstBody, 0, onlyBodyFields(onlyBodyFieldsOf, bodyNames));
  }
  return chains;
}

export type ObjectCheck<F> = { ok: true; input: InputOf<F> } | { ok: false; code: number; error: string };

/**
 * A checker of one object against fields (read as its properties, wherever a request carries them), by the chains a request's body runs (so it fails
 * with the same code and message): a bulk create's items. A chain that names no contract code is a
 * bug in it and throws, as it would answer 500 on a request. Build it once (at mount), use it per item.
 * With `onlyFieldsOf`, a property that is not a field is 1017 first, naming it as that says.
 */
export function objectChecker<F extends Fields<C>, C>(fields: F, config: C, onlyFieldsOf?: string) {
  const chains = Object.entries(fields).map(([name, f]) => chainOf('body', name, f, config));
  const names = Object.keys(fields);
  if (onlyFieldsOf !== undefined) chains.unshift(onlyBodyFields(onlyFieldsOf, names));
  return async (value: object, headers: Request['headers']): Promise<ObjectCheck<F>> => {
    const outcome = await runValidation<Record<string, unknown>>(chains, { body: value, headers });
    // The fields' parsers made every value; their types are InputOf<F>.
    if (outcome.ok) return { ok: true, input: inputOf(outcome.input, names) as InputOf<F> };
    if (outcome.code === undefined) throw new Error(outcome.message);
    return { ok: false, code: outcome.code, error: outcome.message };
  };
}

/**
 * The input of a request from its validated data: the declared fields only. A whole-body check
 * (`onlyBodyFields`) leaves the body itself under the empty name, which is not a field.
 */
export function inputOf(data: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of names) if (name in data) input[name] = data[name];
  return input;
}
