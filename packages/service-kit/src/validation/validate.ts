import type { Request, RequestHandler } from 'express';
import { matchedData, type Meta, type ValidationChain, type ValidationError } from 'express-validator';
import { ApiError, isApiError } from '../api-error.js';
import { asInputFailure, InputFailure } from './input-failure.js';

/** Thrown when a chain fails without naming a contract error: a bug in the chain, answered as code 0. */
export class UncodedValidationError extends Error {
  constructor(
    readonly path: string,
    readonly detail: unknown,
  ) {
    super(`validation of "${path}" failed without a contract error: ${String(detail)}`);
    this.name = 'UncodedValidationError';
  }
}

/** The registry error a failed check names; a check that names none is a bug in its chain. */
function errorOf(first: ValidationError | undefined): Error {
  const failure: unknown = first?.msg;
  if (!(failure instanceof InputFailure))
    return new UncodedValidationError(first?.type === 'field' ? first.path : '(request)', failure);
  return new ApiError(failure.error, failure.message === undefined ? {} : { message: failure.message });
}

/** Locations whose values are all in the request line: chains over them alone are a function of the URL. */
const URL_LOCATIONS = new Set(['query', 'params']);
/** How many URLs one route remembers the outcome of; a URL longer than this many characters is not remembered. */
const REMEMBERED_URLS = 4096;
const REMEMBERED_URL_LENGTH = 512;

type Outcome =
  { data: Readonly<Record<string, unknown>> } | { error: { name: ApiError['errorName']; message: string } };

const VALIDATED = Symbol('validated');
type RequestWithValidated = Request & { [VALIDATED]?: Readonly<Record<string, unknown>> };

/** A plain field name: express-validator reads it as `container[name]`, with no path or wildcard to expand. */
const PLAIN_FIELD = /^[A-Za-z_$][\w$]*$/;
/** Locations whose names express-validator takes as given (it lower-cases header names). */
const SKIPPABLE_LOCATIONS: ReadonlySet<string> = new Set(['body', 'query', 'params']);

type AbsenceTest = (req: Request) => boolean;

interface CheckedChain {
  chain: ValidationChain;
  isAbsent: AbsenceTest | undefined;
}

/**
 * How to tell that a chain would do nothing for a request: it is optional and its one plain field
 * is absent from every location it reads. express-validator would still select the field and, for
 * each of the chain's checks, find no value to run it on, at a few microseconds a check; a create
 * with only a url skipped four such chains. Undefined for every other chain.
 */
function absenceTestOf(chain: ValidationChain): AbsenceTest | undefined {
  const { optional, fields, locations } = chain.builder.build();
  const [name] = fields;
  if (optional === false || fields.length !== 1 || name === undefined || !PLAIN_FIELD.test(name)) return undefined;
  if (!locations.every((location) => SKIPPABLE_LOCATIONS.has(location))) return undefined;
  return (req) =>
    locations.every((location) => {
      const container: unknown = req[location as 'body' | 'query' | 'params'];
      // express-validator reads a field of a primitive container (a JSON string body) through its prototype: leave those to it.
      if (container === undefined || container === null) return true;
      return typeof container === 'object' && (container as Record<string, unknown>)[name] === undefined;
    });
}

async function firstFailure(chains: readonly CheckedChain[], req: Request): Promise<Error | undefined> {
  for (const { chain, isAbsent } of chains) {
    if (isAbsent?.(req)) continue;
    const result = await chain.run(req);
    if (!result.isEmpty()) return errorOf(result.array()[0]);
  }
  return undefined;
}

/**
 * The validation step of a route: runs the express-validator chains in the order given and stops
 * at the first that fails, whose first failure becomes the contract's error (code and message). So
 * the first field listed is the first reported, and a bad request costs one failed check.
 *
 * When every chain reads only the query and the path parameters, the outcome is a function of the
 * URL (chains are pure: they check and convert, never look anything up), so each route remembers
 * it for its most recent URLs: a hot GET (a random image, a check) pays for its chains once, not
 * on every request (they cost tens of microseconds, more than the rest of such a request's CPU).
 * A chain that would do nothing (an optional field the request does not carry) is not run.
 */
export function validate(...chainList: ValidationChain[]): RequestHandler {
  const urlOnly = chainList.every((chain) =>
    chain.builder.build().locations.every((location) => URL_LOCATIONS.has(location)),
  );
  const chains = chainList.map((chain): CheckedChain => ({ chain, isAbsent: absenceTestOf(chain) }));
  if (!urlOnly) {
    return async (req, _res, next) => {
      next(await firstFailure(chains, req));
    };
  }
  const outcomes = new Map<string, Outcome>();
  return async (req, _res, next) => {
    const url: unknown = req.url;
    if (typeof url !== 'string' || url.length > REMEMBERED_URL_LENGTH) {
      next(await firstFailure(chains, req));
      return;
    }
    const remembered = outcomes.get(url);
    if (remembered) {
      if ('data' in remembered) {
        (req as RequestWithValidated)[VALIDATED] = remembered.data;
        next();
      } else next(new ApiError(remembered.error.name, { message: remembered.error.message }));
      return;
    }
    const failure = await firstFailure(chains, req);
    let outcome: Outcome | undefined;
    if (failure === undefined) {
      const data = Object.freeze(matchedData(req, { onlyValidData: true }));
      (req as RequestWithValidated)[VALIDATED] = data;
      outcome = { data };
    } else if (isApiError(failure)) outcome = { error: { name: failure.errorName, message: failure.message } };
    if (outcome) {
      if (outcomes.size >= REMEMBERED_URLS) outcomes.delete(outcomes.keys().next().value!);
      outcomes.set(url, outcome);
    }
    next(failure);
  };
}

/** The request's validated and sanitized values (optional fields that were absent are left out). */
export function validated<T>(req: Request): T {
  return ((req as RequestWithValidated)[VALIDATED] ?? matchedData(req, { onlyValidData: true })) as T;
}

/**
 * A domain rule as one check-and-convert step: `parse` returns the value to keep or throws the
 * ApiError (or InputFailure) the contract gives for it. The converted value is what the handler reads.
 * `meta` is express-validator's (the request, the field), for a rule that depends on the app's settings.
 */
export function parsedBy<T>(chain: ValidationChain, parse: (value: unknown, meta: Meta) => T): ValidationChain {
  return chain
    .customSanitizer((value: unknown, meta: Meta) => {
      try {
        return parse(value, meta);
      } catch (error) {
        return asInputFailure(error);
      }
    })
    .custom((value: unknown) => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- express-validator keeps a thrown non-Error whole as the failure
      if (value instanceof InputFailure) throw value;
      return true;
    });
}
