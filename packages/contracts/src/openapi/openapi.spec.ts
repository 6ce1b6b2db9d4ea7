import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { Errors } from '../errors.js';
import { errorSchemaName } from './error-schemas.js';
import { INTERNAL, servedDocument, thumbsOpenApi, withServer, type OpenApiDocument } from './index.js';

// The shortener's and the images documents are generated in their apps and checked there (test-kit's describeOpenApiDocument).
const DOCUMENTS: Array<[string, OpenApiDocument]> = [['thumbs', thumbsOpenApi]];

describe.each(DOCUMENTS)('the %s OpenAPI document', (_name, document) => {
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
    for (const [name, def] of Object.entries(Errors)) {
      const schema = document.components.schemas[errorSchemaName(name as keyof typeof Errors)] as {
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
});

describe('the documents as served', () => {
  it("leave out the paths marked internal (thumbs' bull-board dashboard) and keep every other", () => {
    const served = servedDocument(thumbsOpenApi, 'https://thumbs.example.com');
    expect(Object.keys(served.paths).filter((path) => path.startsWith('/admin/queues'))).toEqual([]);
    expect(Object.keys(thumbsOpenApi.paths)).toEqual(expect.arrayContaining(['/admin/queues', '/admin/queues/{path}']));
    const kept = Object.entries(thumbsOpenApi.paths)
      .filter(([, item]) => item[INTERNAL] !== true)
      .map(([path]) => path);
    expect(Object.keys(served.paths)).toEqual(kept);
    expect(served.servers).toEqual([{ url: 'https://thumbs.example.com' }]);
  });

  it('name every path parameter for what it is', () => {
    for (const [, document] of DOCUMENTS) {
      for (const path of Object.keys(servedDocument(document, 'https://x.example').paths)) {
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g))
          expect(['code', 'db', 'id', 'category', 'md5', 'type', 'file'], path).toContain(name);
      }
    }
  });
});

describe('the OpenAPI validator', () => {
  it('refuses a document that is not OpenAPI 3.1 (so the checks above can fail)', async () => {
    const broken = structuredClone(thumbsOpenApi) as unknown as { paths: Record<string, unknown> };
    broken.paths['no-leading-slash'] = { get: { responses: { '200': {} } } };
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });
});
