import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  operationsOf,
  parametersOf,
  SERVICE_NAMES,
  startServedSystem,
  type ServedSystem,
} from '../support/served-system.js';

/**
 * docs/api.md §1: a query parameter has one shape. Every route of every service's OpenAPI
 * document (as served) is called with each of its query parameters (a made-up one where it has
 * none) bracketed (`a[]=`, `a[b]=`) and repeated (`a=1&a=2`), with a key that passes every guard:
 * each is 400 1057 naming the parameter, 422 1085 for `callbackURL`. A parameter the document
 * declares a list (`type: array`, OpenAPI's exploded form) is repeated by its shape, so only its
 * brackets are refused.
 */

const MD5 = '0123456789abcdef0123456789abcdef';

/** The query parameters an operation documents as lists. */
const listParametersOf = (operation: Record<string, unknown>): Set<string> =>
  new Set(
    ((operation.parameters ?? []) as Array<{ name: string; in: string; schema?: { type?: string } }>)
      .filter((parameter) => parameter.in === 'query' && parameter.schema?.type === 'array')
      .map((parameter) => parameter.name),
  );
let system: ServedSystem;

beforeAll(async () => {
  system = await startServedSystem('e2equery');
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

/** A value for a path parameter that reaches the route (the request is refused before it runs). */
const pathValue = (name: string): string =>
  ({ code: system.links[0]!.code, category: 'furry.boop', md5: MD5, id: MD5, type: 'gif', db: 'furry.boop' })[name] ??
  'x';

describe.each(SERVICE_NAMES)('%s: every route refuses a bracketed or repeated query parameter', (service) => {
  it('400 1057 naming it (422 1085 for callbackURL), whatever the route and method', async () => {
    const checked: string[] = [];
    for (const { path, method, operation } of operationsOf(system.documents[service])) {
      const target = path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(pathValue(name)));
      const names = parametersOf(operation, 'query');
      const lists = listParametersOf(operation);
      for (const name of names.length > 0 ? names : ['a']) {
        const shapes = [`${name}[]=1`, `${name}[b]=1`, ...(lists.has(name) ? [] : [`${name}=1&${name}=2`])];
        for (const query of shapes) {
          const res = await fetch(`${system.services[service].url}${target}?${query}`, {
            method: method.toUpperCase(),
            headers: { authorization: system.key, accept: 'application/json' },
            redirect: 'manual',
          });
          const label = `${method.toUpperCase()} ${path}?${query}`;
          const [status, code] = name === 'callbackURL' ? [422, 1085] : [400, 1057];
          expect(res.status, label).toBe(status);
          if (method === 'head') continue;
          const body = (await res.json()) as { code: number; error: string };
          expect(body.code, label).toBe(code);
          if (code === 1057) expect(body.error, label).toContain(name);
          checked.push(label);
        }
      }
    }
    expect(checked.length).toBeGreaterThan(0);
  });
});
