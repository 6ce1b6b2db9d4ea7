import { Errors } from '@pawlink/contracts';
import { errorSchemaName, servedDocument, withServer, type OpenApiDocument } from '@pawlink/contracts/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';

/**
 * What every service's OpenAPI document must be (the checks `packages/contracts`'s openapi.spec
 * runs on the hand-written documents), for a document an app generates from its endpoint
 * declarations (docs/adr/0016): valid OpenAPI 3.1 as served, one schema per registry code, every
 * failure under its registry status, path parameters named for what they are.
 */
export function describeOpenApiDocument(
  name: string,
  document: OpenApiDocument,
  options: {
    /** Paths documented for the tests' sake and marked internal (thumbs' bull-board dashboard): left out when served. */
    internalPaths?: readonly string[];
  } = {},
): void {
  const internal = new Set(options.internalPaths ?? []);
  const servedPaths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => !internal.has(path)));
  describe(`the ${name} OpenAPI document`, () => {
    it('validates as OpenAPI 3.1, as served with its base URL too', async () => {
      for (const candidate of [
        document,
        withServer(document, 'https://example.com'),
        servedDocument(document, 'https://example.com'),
      ]) {
        const validator = new Validator();
        const result = await validator.validate(
          structuredClone(candidate) as unknown as Parameters<Validator['validate']>[0],
        );
        expect(validator.version).toBe('3.1');
        expect(result.errors ?? []).toEqual([]);
        expect(result.valid).toBe(true);
      }
    });

    it('has one schema per registry code, with its number and default message', () => {
      for (const [code, def] of Object.entries(Errors)) {
        const schema = document.components.schemas[errorSchemaName(code as keyof typeof Errors)] as {
          properties: { code: { const: number }; error: { examples: string[] } };
        };
        expect(schema.properties.code.const).toBe(def.code);
        expect(schema.properties.error.examples).toEqual([def.message]);
      }
    });

    it('answers every failure status with the registry status of its codes', () => {
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item)) {
          if (method.startsWith('x-')) continue;
          for (const [status, response] of Object.entries(
            (operation as { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }).responses,
          )) {
            const text = JSON.stringify(response.content?.['application/json']?.schema ?? {});
            for (const match of text.matchAll(/#\/components\/schemas\/Error(\d+)/g)) {
              const def = Object.values(Errors).find((e) => e.code === Number(match[1]));
              expect(String(def?.status), `${method} ${path} ${status}`).toBe(status);
            }
          }
        }
      }
    });

    it(`keeps every path as served (${internal.size === 0 ? 'none is internal' : 'but the internal ones'}) and names every path parameter for what it is`, () => {
      expect(servedDocument(document, 'https://x.example').paths).toEqual(servedPaths);
      for (const path of Object.keys(servedDocument(document, 'https://x.example').paths)) {
        for (const [, parameter] of path.matchAll(/\{([^}]+)\}/g))
          expect(['code', 'db', 'id', 'category', 'md5', 'type', 'file'], path).toContain(parameter);
      }
    });
  });
}
