import { body, type ValidationChain } from 'express-validator';
import { failWith } from './input-failure.js';

const quoted = (value: string): string => JSON.stringify(value.slice(0, 50));

/** The first key of a JSON or form object body that is not among `fields`; undefined for any other body. */
function firstUnknownField(value: unknown, fields: ReadonlySet<string>): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.keys(value).find((key) => !fields.has(key));
}

/**
 * The body may hold only `fields` (docs/api.md §1, code 1017): the first other field is 400 code 1017, named in the
 * message, so a request that would change something unintended changes nothing. A body that is not
 * an object is left to the chains of its fields. Like every whole-body chain, it puts the body under
 * the empty path of the validated data: handlers read their fields by name.
 */
export function onlyBodyFields(endpoint: string, fields: readonly string[]): ValidationChain {
  const known = new Set(fields);
  return body()
    .custom((value: unknown) => firstUnknownField(value, known) === undefined)
    .withMessage(
      failWith(
        'UNKNOWN_BODY_FIELD',
        (value) =>
          `The request body has a field ${endpoint} does not take: ${quoted(firstUnknownField(value, known) ?? '')} (it takes ${fields.length > 0 ? fields.join(', ') : 'none'}).`,
      ),
    );
}
