import {
  HTTP_METHODS,
  MULTI_SEGMENT,
  type OpenApiDocument,
  type OperationObject,
  type PathItemObject,
} from '@pawlink/contracts/openapi';

interface CompiledPath {
  template: string;
  item: PathItemObject;
  pattern: RegExp;
  concrete: boolean;
  multi: boolean;
  literals: number;
}

/** Which operation of a document takes a request, or which fallback answers it. */
export type PathMatch =
  | { kind: 'operation'; template: string; method: string; operation: OperationObject }
  | { kind: 'method-not-allowed'; template: string; allow: string[] }
  | { kind: 'unknown-route' };

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(template: string, item: PathItemObject): CompiledPath {
  const multiName = item[MULTI_SEGMENT];
  let source = '';
  let literals = 0;
  for (const part of template.split(/(\{[^}]+\})/)) {
    const variable = /^\{([^}]+)\}$/.exec(part);
    if (variable) source += variable[1] === multiName ? '(.+?)' : '([^/]+?)';
    else {
      source += escapeRegExp(part);
      literals += part.length;
    }
  }
  // Express routes ignore case and one trailing slash.
  return {
    template,
    item,
    pattern: new RegExp(`^${source}/?$`, 'i'),
    concrete: !template.includes('{'),
    multi: typeof multiName === 'string',
    literals,
  };
}

const methodsOf = (item: PathItemObject): string[] => HTTP_METHODS.filter((method) => item[method] !== undefined);

/**
 * Matches requests to a document the way the services route them: a concrete path (no template)
 * owns every method of its path; otherwise the most specific template (single-segment variables
 * before multi-segment ones, then more literal characters) that has the method takes it. A path
 * that matches but has no operation for the method is 405 (`allow` lists the methods of every
 * matching path, as Express's 405 does); no match is an unknown route. HEAD uses GET's operation.
 */
export class PathMatcher {
  private readonly paths: CompiledPath[];

  constructor(document: OpenApiDocument) {
    this.paths = Object.entries(document.paths)
      .map(([template, item]) => compile(template, item))
      .sort(
        (a, b) =>
          Number(b.concrete) - Number(a.concrete) || Number(a.multi) - Number(b.multi) || b.literals - a.literals,
      );
  }

  match(method: string, pathname: string): PathMatch {
    const verb = method.toLowerCase();
    const matching = this.paths.filter((path) => path.pattern.test(pathname));
    if (matching.length === 0) return { kind: 'unknown-route' };
    const concrete = matching.find((path) => path.concrete);
    const candidates = concrete ? [concrete] : matching;
    for (const path of candidates) {
      const operation = path.item[verb as 'get'] ?? (verb === 'head' ? path.item.get : undefined);
      if (operation) return { kind: 'operation', template: path.template, method: verb, operation };
    }
    const methods = new Set(candidates.flatMap((path) => methodsOf(path.item)).map((m) => m.toUpperCase()));
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return { kind: 'method-not-allowed', template: candidates[0]!.template, allow: [...methods].sort() };
  }
}
