import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Errors, type JsonSchema } from '@pawlink/contracts';
import type { OpenApiDocument } from '@pawlink/contracts/openapi';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../processes.js';

/** What the check reads of an endpoint declaration (service-kit's `Endpoint`, structurally). */
export interface DeclaredEndpoint {
  method: string;
  /** The Express path: `/:code`, `/:code\\+`. */
  path: string;
  fields: Record<string, { in: 'params' | 'query' | 'body'; absent?: string; codes: readonly string[] }>;
}

interface Row {
  method: string;
  path: string;
  query: string[];
  /** Top-level body fields, `?` marking the optional ones. */
  body: string[] | undefined;
  codes: number[];
}

const cellsOf = (line: string): string[] =>
  line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The top-level names of `{a, b?, c:[{…}]}`. */
function topLevelNames(object: string): string[] {
  const inner = object.trim().slice(1, -1);
  const names: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of inner) {
    if ('[{('.includes(char)) depth++;
    if (']})'.includes(char)) depth--;
    if (char === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else current += char;
  }
  names.push(current);
  return names.map((name) => name.split(':')[0]!.trim()).filter((name) => name !== '');
}

/** The endpoint table of a section of docs/api.md (`| method path | success | failures |`), row by row. */
function endpointTable(section: string): Row[] {
  const text = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');
  const start = text.indexOf(`\n${section}\n`);
  if (start === -1) throw new Error(`docs/api.md has no section "${section}"`);
  const lines = text.slice(start).split('\n').slice(2);
  const end = lines.findIndex((line) => line.startsWith('## '));
  const table = lines.slice(0, end === -1 ? undefined : end);
  const header = table.findIndex((line) => line.startsWith('| method path |'));
  const rows: Row[] = [];
  for (const line of table.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [route = '', , failures = ''] = cellsOf(line);
    const head = /^(GET|POST|PUT|PATCH|DELETE) (\S+)/.exec(route);
    if (!head) throw new Error(`docs/api.md: a row without a method and path: ${route}`);
    const query = /`\[\?([^\]`]+)\]`/.exec(route)?.[1];
    const body = /body `(\{.*?\})`/.exec(route)?.[1];
    rows.push({
      method: head[1]!,
      path: head[2]!,
      query: query ? query.split('&').map((part) => part.split('=')[0]!) : [],
      body: body ? topLevelNames(body) : undefined,
      // "same as PATCH minus 1080" names 1080 as one it does not answer
      codes: [...failures.matchAll(/(?<!minus )\b(10\d\d)\b/g)].map((match) => Number(match[1])),
    });
  }
  return rows;
}

const unescaped = (path: string): string => path.replace(/\\(.)/g, '$1');
const templateOf = (path: string): string => unescaped(path).replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');
const RETIRED = new Set(
  Object.values(Errors)
    .filter((def) => 'retired' in def && def.retired)
    .map((def) => def.code),
);

/** The registry codes an operation of the document can answer (its `Error<code>` schemas). */
function answeredCodes(document: OpenApiDocument, endpoint: DeclaredEndpoint): Set<number> {
  const operation = document.paths[templateOf(endpoint.path)]?.[endpoint.method as 'get'];
  const text = JSON.stringify(operation?.responses ?? {});
  return new Set([...text.matchAll(/#\/components\/schemas\/Error(\d+)/g)].map((match) => Number(match[1])));
}

/**
 * docs/api.md keeps its prose; its endpoint table of `section` is held to the endpoint
 * declarations (docs/adr/0016): one row per declared method and path and no other; the query
 * parameters and body fields a row names (`[?a&b]`, `body {a, b?}`) are the declared ones, optional
 * where declared so; every code a row names is one the generated operation answers, and a row that
 * names codes names each code of its fields. `record` checks a line listing a schema's properties
 * (`name|null` for a nullable one) against that schema.
 */
export function describeApiDocTable(options: {
  section: string;
  endpoints: readonly DeclaredEndpoint[];
  document: OpenApiDocument;
  record?: { prefix: string; schema: JsonSchema };
}): void {
  describe(`docs/api.md "${options.section}" matches the endpoint declarations`, () => {
    const rows = endpointTable(options.section);
    const rowOf = (endpoint: DeclaredEndpoint): Row | undefined =>
      rows.find((row) => row.method === endpoint.method.toUpperCase() && row.path === unescaped(endpoint.path));

    it('has one row per declared endpoint and no other', () => {
      const declared = options.endpoints.map((e) => `${e.method.toUpperCase()} ${unescaped(e.path)}`).sort();
      expect(rows.map((row) => `${row.method} ${row.path}`).sort()).toEqual(declared);
    });

    it('names the declared query parameters and body fields, optional where declared', () => {
      for (const endpoint of options.endpoints) {
        const row = rowOf(endpoint);
        if (!row) continue;
        const of = (location: string): Array<[string, { absent?: string }]> =>
          Object.entries(endpoint.fields).filter(([, f]) => f.in === location);
        const label = `${row.method} ${row.path}`;
        expect(row.query.sort(), label).toEqual(
          of('query')
            .map(([name]) => name)
            .sort(),
        );
        // A whole-body field (named '') is a map or list the row describes in its own words (`{"<db>": <count>, ...}`).
        if (of('body').some(([name]) => name === '')) continue;
        expect(row.body?.sort() ?? [], label).toEqual(
          of('body')
            .map(([name, f]) => (f.absent === undefined ? name : `${name}?`))
            .sort(),
        );
      }
    });

    it('names only codes the operation answers, and every code of its fields', () => {
      for (const endpoint of options.endpoints) {
        const row = rowOf(endpoint);
        if (!row) continue;
        const label = `${row.method} ${row.path}`;
        const answered = answeredCodes(options.document, endpoint);
        expect(
          row.codes.filter((code) => !RETIRED.has(code) && !answered.has(code)),
          `${label}: codes docs/api.md names that the operation does not answer`,
        ).toEqual([]);
        if (row.codes.length === 0) continue;
        const fieldCodes = Object.values(endpoint.fields).flatMap((f) =>
          f.codes.map((name) => Errors[name as keyof typeof Errors].code),
        );
        expect(
          [...new Set(fieldCodes)].filter((code) => !row.codes.includes(code)),
          `${label}: codes of its fields that docs/api.md leaves out`,
        ).toEqual([]);
      }
    });

    if (options.record) {
      const { prefix, schema } = options.record;
      it(`lists the properties of the record ("${prefix}")`, () => {
        const text = readFileSync(join(REPO_ROOT, 'docs/api.md'), 'utf8');
        const at = text.indexOf(prefix);
        expect(at, prefix).toBeGreaterThan(-1);
        const listed = /`([^`]+)`/.exec(text.slice(at + prefix.length))![1]!;
        const properties = schema.properties as Record<string, { type?: unknown }>;
        const expected = Object.entries(properties).map(([name, property]) =>
          Array.isArray(property.type) && property.type.includes('null') ? `${name}|null` : name,
        );
        expect(listed.split(/,\s*/)).toEqual(expected);
      });
    }
  });
}
