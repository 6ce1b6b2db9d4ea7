import type { RequestHandler } from 'express';
import { ApiError } from '../api-error.js';

/** A query parameter given in a shape no endpoint takes for it. */
export interface QueryShapeFault {
  /** The parameter's name, without brackets (`a` for `a[]` and `a[b]`). */
  name: string;
  shape: 'bracketed' | 'repeated';
}

/** Which parameters a route takes as a list (`a=1&a=2`), by the path it serves. */
export interface QueryListRule {
  /** The request paths of the route (the path only, without the query). */
  path: RegExp;
  names: readonly string[];
}

function decodedName(raw: string): string {
  // Most names have nothing to decode: the common request pays for no copy.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  const text = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    // As node's querystring does: a malformed escape stays as it is.
    return text;
  }
}

/**
 * The first parameter of `search` (a query string, without `?`) given in a shape the contract does
 * not take: with brackets (`a[]=1`, `a[b]=1`, also percent-encoded), which no endpoint takes, or
 * more than once (`a=1&a=2`) unless `lists` names it. Undefined when every parameter is plain.
 * Parameters an endpoint does not read are held to the same shape: one rule for every route.
 */
export function queryShapeFault(search: string, lists?: ReadonlySet<string>): QueryShapeFault | undefined {
  if (search === '') return undefined;
  // A query has a few names: a list compares them faster than a Set is built (every request with
  // a query runs this; about 0.3 µs for three parameters).
  const seen: string[] = [];
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    const equals = search.indexOf('=', start);
    const name = decodedName(search.slice(start, equals === -1 || equals > end ? end : equals));
    start = end + 1;
    if (name === '') continue;
    const open = name.indexOf('[');
    const close = name.indexOf(']');
    if (open !== -1 || close !== -1) {
      const bracket = open === -1 ? close : close === -1 ? open : Math.min(open, close);
      return { name: bracket === 0 ? name : name.slice(0, bracket), shape: 'bracketed' };
    }
    if (seen.includes(name) && !lists?.has(name)) return { name, shape: 'repeated' };
    seen.push(name);
  }
  return undefined;
}

/** Whether the query of `url` (a request target) is plain: what the shortener's lane before Express asks. */
export function hasPlainQuery(url: string): boolean {
  const question = url.indexOf('?');
  return question === -1 || queryShapeFault(url.slice(question + 1)) === undefined;
}

/** Parameters whose refusal has a code of their own (docs/api.md): a callback refused is 422 1085. */
const OWN_REFUSALS: Readonly<Record<string, () => ApiError>> = {
  callbackURL: () => new ApiError('CALLBACK_URL_REFUSED'),
};

/** The contract's answer to a fault: 400 1057 naming the parameter, or the parameter's own code. */
export function queryShapeError(fault: QueryShapeFault): ApiError {
  const own = OWN_REFUSALS[fault.name];
  if (own) return own();
  const example = fault.shape === 'bracketed' ? 'brackets' : 'more than once';
  return new ApiError('INVALID_QUERY_VALUE', {
    message: `Invalid ${fault.name.slice(0, 50)}: give it once, as one plain value (not with ${example}).`,
  });
}

/**
 * Every route's query parameters, checked in one place before any route runs (docs/api.md §1): a
 * bracketed or repeated parameter is refused (`queryShapeError`), unless `lists` declares it a
 * list for the path of the request (then it may be repeated).
 */
export function strictQuery(lists: readonly QueryListRule[] = []): RequestHandler {
  return (req, _res, next) => {
    const url = req.url;
    const question = url.indexOf('?');
    if (question === -1) {
      next();
      return;
    }
    let allowed: Set<string> | undefined;
    if (lists.length > 0) {
      const path = url.slice(0, question);
      for (const rule of lists)
        if (rule.path.test(path)) for (const name of rule.names) (allowed ??= new Set()).add(name);
    }
    const fault = queryShapeFault(url.slice(question + 1), allowed);
    next(fault ? queryShapeError(fault) : undefined);
  };
}
