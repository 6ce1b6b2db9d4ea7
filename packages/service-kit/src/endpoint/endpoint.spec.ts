import { s } from '@pawlink/contracts';
import { empty, json, successWith } from '@pawlink/contracts/openapi';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.js';
import { chainsOf, inputOf, objectChecker } from './chains.js';
import { endpointOperation, endpointPaths, templateOf } from './document.js';
import { defineEndpoint } from './endpoint.js';
import { field, inBody, inPath, inQuery, optional, WHOLE_BODY } from './field.js';
import { optionalKey, parsedBody, rateLimit, requireKey, VALIDATION, writable, type KeyGuards } from './guards.js';
import type { ReadOnlySwitch } from '../read-only.js';
import { mountEndpoint, queryListsOf } from './mount.js';
import { runValidation } from '../validation/run-validation.js';

interface Deps {
  config: { limit: number };
  guards: KeyGuards;
  readOnly: ReadOnlySwitch;
}

const count = field<number, Deps['config']>({
  schema: s.integer(),
  description: 'How many.',
  codes: ['INVALID_QUERY_VALUE'],
  parse: (value, { config }) => {
    const n = Number(value ?? 1);
    if (!Number.isInteger(n) || n > config.limit) throw new ApiError('INVALID_QUERY_VALUE', { message: 'bad count' });
    return n;
  },
});
const name = field<string>({
  schema: s.string(),
  codes: ['INVALID_CODE'],
  parse: (value) => {
    if (typeof value !== 'string') throw new ApiError('INVALID_CODE', { message: 'bad name' });
    return value.toUpperCase();
  },
});
const uncoded = field<string>({
  schema: s.string(),
  codes: [],
  parse: () => {
    throw new Error('a parser that names no contract code');
  },
});

const endpoint = defineEndpoint<Deps>()({
  operationId: 'makeThing',
  summary: 'Make a thing',
  tags: ['things'],
  method: 'post',
  path: '/things/:id\\+',
  guards: [requireKey('shortener'), writable(), parsedBody(), VALIDATION, rateLimit('things.make')],
  fields: { count: inQuery(count), id: inPath(name), name: inBody(optional(name, { nullMeansAbsent: true })) },
  body: { description: 'The thing.' },
  onlyBodyFieldsOf: 'POST /things',
  responses: { 201: json('Made.', successWith(s.object({ count: s.integer() }))), 204: empty('Nothing.') },
  errors: ['CODE_IN_USE'],
  handler:
    () =>
    ({ input }) => ({ status: 201, body: { success: true, data: { count: input.count } } }),
});

const config = { limit: 3 };
async function run(request: Parameters<typeof runValidation>[1]) {
  const outcome = await runValidation<Record<string, unknown>>(
    chainsOf(endpoint.fields, config, endpoint.onlyBodyFieldsOf),
    request,
  );
  return outcome.ok ? { ok: true, input: inputOf(outcome.input, Object.keys(endpoint.fields)) } : outcome;
}

describe('fields become express-validator chains', () => {
  it('parse in the order written, with the app settings, and keep the parsed values', async () => {
    expect(await run({ query: { count: '2' }, params: { id: 'a' }, body: { name: 'b' } })).toEqual({
      ok: true,
      input: { count: 2, id: 'A', name: 'B' },
    });
    expect(await run({ query: {}, params: { id: 'a' }, body: { name: null } })).toEqual({
      ok: true,
      input: { count: 1, id: 'A' },
    });
  });

  it('answer the first failure with its code and message', async () => {
    expect(await run({ query: { count: '9' }, params: { id: 7 }, body: {} })).toMatchObject({
      ok: false,
      code: 1057,
      message: 'bad count',
    });
    expect(await run({ query: {}, params: { id: 7 }, body: {} })).toMatchObject({
      ok: false,
      code: 1071,
      message: 'bad name',
    });
  });

  it('refuse a body field the endpoint does not take (1017) just before the first body field', async () => {
    expect(await run({ query: {}, params: { id: 'a' }, body: { other: 1 } })).toMatchObject({ ok: false, code: 1017 });
    expect(await run({ query: { count: 'x' }, params: { id: 'a' }, body: { other: 1 } })).toMatchObject({
      ok: false,
      code: 1057,
    });
  });

  it('refuse any body field (1017) before anything else when the endpoint takes none', async () => {
    const chains = chainsOf({ count: inQuery(count), id: inPath(name) }, config, 'PUT /things/:id');
    expect(await runValidation(chains, { query: { count: '9' }, params: { id: 7 }, body: { other: 1 } })).toEqual({
      ok: false,
      code: 1017,
      message: expect.stringContaining('other'),
    });
    expect(await runValidation(chains, { query: { count: '9' }, params: { id: 'a' }, body: {} })).toMatchObject({
      ok: false,
      code: 1057,
    });
  });

  it('check an object on its own (a bulk item); a parser without a code throws', async () => {
    const check = objectChecker({ name: inBody(name) }, config, 'an item');
    expect(await check({ name: 'x' }, {})).toEqual({ ok: true, input: { name: 'X' } });
    expect(await check({ name: 1, other: 2 }, {})).toMatchObject({ ok: false, code: 1017 });
    expect(await check({ name: 1 }, {})).toEqual({ ok: false, code: 1071, error: 'bad name' });
    await expect(objectChecker({ name: inBody(uncoded) }, config)({ name: 'x' }, {})).rejects.toThrow(
      /a parser that names no contract code/,
    );
  });
});

describe('an endpoint becomes a route', () => {
  it('runs its guards in order with validation where VALIDATION stands, and sends the reply as JSON', async () => {
    const app = express();
    app.use(express.json());
    const seen: string[] = [];
    const guard = (label: string) => (_req: unknown, _res: unknown, next: () => void) => {
      seen.push(label);
      next();
    };
    mountEndpoint(app, endpoint, {
      config,
      guards: { requireKey: () => guard('key'), rateLimit: () => guard('limit') },
      readOnly: { isReadOnly: () => false },
    } as never);
    app.use((error: ApiError, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen.push(`failed ${error.code}`);
      res.status(error.httpStatus).json({ code: error.code });
    });
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const made = await fetch(`http://127.0.0.1:${port}/things/a+?count=2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'b' }),
      });
      expect([made.status, await made.json()]).toEqual([201, { success: true, data: { count: 2 } }]);
      expect(seen).toEqual(['key', 'limit']);
      const refused = await fetch(`http://127.0.0.1:${port}/things/a+?count=9`, { method: 'POST' });
      expect(refused.status).toBe(400);
      // the limit comes after validation: a refused request never reaches it
      expect(seen).toEqual(['key', 'limit', 'key', 'failed 1057']);
    } finally {
      server.close();
    }
  });
});

describe('an endpoint becomes an OpenAPI operation', () => {
  const operation = endpointOperation(endpoint);

  it('takes who may call it and the codes its guards imply from the guards', () => {
    expect(operation.security).toEqual([{ ApiKey: [] }]);
    expect(operation['x-pawlink-rate-limit-bucket']).toBe('things.make');
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['400', '401', '403', '409', '413', '415', '429', '503']),
    );
  });

  it('documents path and query fields as parameters (path first) and body fields as a closed body', () => {
    expect(operation.parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: '', schema: { type: 'string' } },
      { name: 'count', in: 'query', required: false, description: 'How many.', schema: { type: 'integer' } },
    ]);
    expect(operation.requestBody?.content['application/json']?.schema).toEqual({
      type: 'object',
      required: [],
      properties: { name: { type: 'string' } },
      additionalProperties: false,
    });
  });

  it('lists the fields’ codes and 1017 among its answers', () => {
    const text = JSON.stringify(operation.responses);
    for (const code of [1017, 1057, 1071]) expect(text).toContain(`Error${code}`);
  });

  it('writes the template of an Express path', () => {
    expect(templateOf('/:code\\+')).toBe('/{code}+');
    expect(templateOf('/:code.json')).toBe('/{code}.json');
    expect(templateOf('/*category')).toBe('/{category*}');
  });

  it('merges legacy path objects and refuses an operation described twice', () => {
    const legacy = { '/legacy': { get: operation }, '/things/{id}+': { get: operation } };
    const paths = endpointPaths([endpoint], legacy);
    expect(Object.keys(paths).sort()).toEqual(['/legacy', '/things/{id}+']);
    expect(Object.keys(paths['/things/{id}+']!).sort()).toEqual(['get', 'post']);
    expect(() => endpointPaths([endpoint], { '/things/{id}+': { post: operation } })).toThrow(
      /both declared and hand-written/,
    );
    expect(() => endpointPaths([endpoint, endpoint])).toThrow(/declared twice/);
  });

  it('refuses body fields without a body description', () => {
    const bodiless = defineEndpoint<Deps>()({ ...endpoint, body: undefined });
    expect(() => endpointOperation(bodiless)).toThrow(/body description/);
  });
});

describe('an optional key, a spanning path, documented headers and a whole body', () => {
  const segments = field<string>({
    schema: s.string(),
    description: 'A key, dotted or slashed.',
    codes: ['CATEGORY_NOT_FOUND'],
    parse: (value) => (Array.isArray(value) ? value.join('.') : String(value)),
  });
  const pick = defineEndpoint<Deps>()({
    operationId: 'pickThing',
    summary: 'Pick a thing',
    tags: ['things'],
    method: 'get',
    path: '/:key',
    spanningPath: '/*key',
    guards: [optionalKey()],
    fields: { key: inPath(segments) },
    parameters: [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } }],
    responses: { 200: json('Picked.', s.object({ key: s.string() })) },
    handler:
      () =>
      ({ input }) => ({ status: 200, body: { key: input.key } }),
  });
  const counts = defineEndpoint<Deps>()({
    operationId: 'countThings',
    summary: 'Count things',
    tags: ['things'],
    method: 'post',
    path: '/counts',
    guards: [parsedBody()],
    fields: {
      [WHOLE_BODY]: inBody(
        field({
          schema: s.record(s.integer()),
          codes: ['BULK_INVALID_BODY'],
          parse: (value) => Object.keys(Object(value)),
        }),
      ),
    },
    body: { description: 'Name → count.', media: 'json' },
    responses: { 200: json('The names.', s.array(s.string())) },
    handler:
      () =>
      ({ input }) => ({ status: 200, body: input[WHOLE_BODY] }),
  });

  it('documents the optional key, the fields’ parameters then the documented ones, and the spanning path once', () => {
    const paths = endpointPaths([pick, counts]);
    expect(Object.keys(paths)).toEqual(['/{key}', '/counts']);
    expect(paths['/{key}']!['x-pawlink-multi-segment']).toBe('key');
    expect(paths['/{key}']!.get?.security).toEqual([{}, { ApiKey: [] }]);
    expect(paths['/{key}']!.get?.parameters?.map((p) => ('name' in p ? `${p.in} ${p.name}` : p.$ref))).toEqual([
      'path key',
      'header If-None-Match',
    ]);
    expect(paths['/counts']!.post?.requestBody).toEqual({
      description: 'Name → count.',
      required: true,
      content: { 'application/json': { schema: { type: 'object', additionalProperties: { type: 'integer' } } } },
    });
  });

  it('refuses a spanning path that is not its path with the last parameter spanning', () => {
    expect(() => endpointPaths([defineEndpoint<Deps>()({ ...pick, spanningPath: '/*other' })])).toThrow(/spanningPath/);
    expect(() => endpointPaths([defineEndpoint<Deps>()({ ...pick, spanningPath: '/x/*key' })])).toThrow(/spanningPath/);
  });

  it('mounts both paths with the same steps, and hands a whole body to its field', async () => {
    const app = express();
    app.use(express.json());
    const seen: string[] = [];
    const deps = {
      config,
      guards: {
        optionalKey: () => (_req: unknown, _res: unknown, next: () => void) => {
          seen.push('optional key');
          next();
        },
      },
    } as never;
    mountEndpoint(app, counts, deps);
    mountEndpoint(app, pick, deps);
    const server = app.listen(0);
    try {
      const { port } = server.address() as AddressInfo;
      const read = async (path: string, init?: RequestInit) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, init);
        return [res.status, await res.json()];
      };
      expect(await read('/a.b')).toEqual([200, { key: 'a.b' }]);
      expect(await read('/a/b')).toEqual([200, { key: 'a.b' }]);
      expect(seen).toEqual(['optional key', 'optional key']);
      const body = JSON.stringify({ x: 1, y: 2 });
      expect(await read('/counts', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).toEqual([
        200,
        ['x', 'y'],
      ]);
    } finally {
      server.close();
    }
  });
});

describe('queryListsOf', () => {
  const tags = field<string[]>({
    schema: s.array(s.string()),
    codes: ['INVALID_QUERY_VALUE'],
    parse: (value) => (Array.isArray(value) ? value.map(String) : [String(value)]),
  });
  const listing = defineEndpoint<Deps>()({
    ...endpoint,
    method: 'get',
    path: '/things.list',
    guards: [],
    fields: { count: inQuery(optional(count)), tag: inQuery(optional(tags)) },
    body: undefined,
    onlyBodyFieldsOf: undefined,
    handler: () => () => undefined,
  });

  it('lets repeat only the query fields declared as arrays, on their endpoint path', () => {
    const rules = queryListsOf([endpoint, listing] as never);
    expect(rules.map(({ path, names }) => ({ source: path.source, names }))).toEqual([
      { source: '^\\/things\\.list$', names: ['tag'] },
    ]);
    expect(rules[0]!.path.test('/things.list')).toBe(true);
    expect(rules[0]!.path.test('/thingsXlist')).toBe(false);
  });

  it('refuses a list parameter on a path with parameters', () => {
    const spanning = defineEndpoint<Deps>()({ ...listing, path: '/things/:id' });
    expect(() => queryListsOf([spanning] as never)).toThrow(/fixed path/);
  });
});
