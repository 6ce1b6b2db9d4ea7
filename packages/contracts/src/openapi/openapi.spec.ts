import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { serviceDocument } from './index.js';

/*
 * Every service's document is generated in its app from its endpoint declarations (docs/adr/0016)
 * and checked there (test-kit's describeOpenApiDocument). Here: that the validator those checks
 * use can fail, on a document made by the same helpers with only the paths every service serves.
 */
const shared = serviceDocument({
  service: 'thumbs',
  title: 'A service',
  description: 'Only the paths every service serves.',
  tags: [],
  schemas: {},
  paths: {},
});

describe('the OpenAPI validator', () => {
  it('refuses a document that is not OpenAPI 3.1 (so the checks above can fail)', async () => {
    expect((await new Validator().validate(structuredClone(shared) as never)).valid).toBe(true);
    const broken = structuredClone(shared) as unknown as { paths: Record<string, unknown> };
    broken.paths['no-leading-slash'] = { get: { responses: { '200': {} } } };
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });
});
