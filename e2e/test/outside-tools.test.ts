import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ResponseValidator } from '@pawlink/test-kit';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  operationsOf,
  parametersOf,
  SERVICE_NAMES,
  startServedSystem,
  type ServedServiceName,
  type ServedSystem,
} from '../support/served-system.js';

/**
 * What tools nobody here wrote say about the running services (issue 34): Redocly's recommended
 * rules and swagger-parser on each OpenAPI document as served, a client generated from each with
 * openapi-typescript + openapi-fetch that compiles and calls every operation, and Prometheus'
 * promtool on each service's /metrics.
 */

const E2E_DIR = fileURLToPath(new URL('..', import.meta.url));
const MD5 = '0123456789abcdef0123456789abcdef';
let system: ServedSystem;

beforeAll(async () => {
  system = await startServedSystem('e2etools');
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

/**
 * Warnings of the recommended rules that stay, each for a reason (docs/development.md, "The OpenAPI documents"):
 * no licence is named (the project has not chosen one), a redirect-only operation has no 2xx,
 * and the shared refusals are referenced from `x-pawlink-fallback`, which Redocly does not read.
 */
const KEPT_WARNINGS: Array<{ rule: string; pointer: RegExp }> = [
  { rule: 'info-license', pointer: /^#\/info$/ },
  {
    rule: 'operation-2xx-response',
    pointer: /^#\/paths\/(~1\{code\}|~1admin|~1admin~1login|~1admin~1logout)\/[a-z]+\/responses$/,
  },
  { rule: 'no-unused-components', pointer: /^#\/components\/responses\/[A-Za-z]+$/ },
];

describe.each(SERVICE_NAMES)('%s: the OpenAPI document as served', (service) => {
  it('has no problem under Redocly’s recommended rules but the warnings kept on purpose', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(system.documents[service]),
      absoluteRef: `${system.services[service].url}/openapi.json`,
      config,
    });
    const described = problems.map((problem) => ({
      severity: problem.severity,
      rule: problem.ruleId,
      pointer: problem.location[0]?.pointer ?? '',
      message: problem.message,
    }));
    expect(described.filter((p) => p.severity === 'error')).toEqual([]);
    const unexpected = described.filter(
      (p) => !KEPT_WARNINGS.some((kept) => kept.rule === p.rule && kept.pointer.test(p.pointer)),
    );
    expect(unexpected).toEqual([]);
  });

  it('validates with swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(system.documents[service]) as never)).resolves.toBeDefined();
  });
});

/** What a call of the generated client sends, by operation: values a person would write. */
interface PlannedCall {
  service: ServedServiceName;
  method: string;
  path: string;
  operationId: string;
  params: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  /** Read the answer as bytes: its success is not JSON (a page, an image, a redirect). */
  bytes: boolean;
}

/** Whether every success of an operation is JSON (openapi-fetch then parses it). */
function answersJson(operation: Record<string, unknown>): boolean {
  const responses = operation.responses as Record<string, { content?: Record<string, unknown> }>;
  const successes = Object.entries(responses).filter(([status]) => /^[23]/.test(status));
  return successes.every(([, response]) => Object.keys(response.content ?? {}).join() === 'application/json');
}

/** Query values a person writes for each parameter: numbers as numbers. */
const QUERY_VALUES: Record<string, Record<string, unknown>> = {
  randomImages: { amount: 2 },
  getShortUrlQr: { format: 'png', size: 128 },
  listShortUrls: { limit: 10 },
};

function planCalls(): PlannedCall[] {
  const [link, deleted, aliasDeleted] = system.links as [
    ServedSystem['links'][number],
    ServedSystem['links'][number],
    ServedSystem['links'][number],
  ];
  const pathValues: Record<string, unknown> = {
    code: link.code,
    // The slashed form: the generated client sends it as one encoded segment.
    category: 'furry/boop',
    md5: MD5,
    id: MD5,
    type: 'gif',
    db: 'furry.boop',
    file: 'swagger-ui.css',
    path: 'api/queues',
  };
  const bodies: Record<string, unknown> = {
    createShortUrl: { url: 'https://example.com/generated-client' },
    bulkCreateShortUrls: { links: [{ url: 'https://example.com/generated-client/1' }] },
    updateShortUrl: { managementCode: link.managementCode, credit: 'Generated' },
    deleteShortUrl: { managementCode: deleted.managementCode },
    unlockShortUrl: { password: 'generated-client' },
    deleteShortUrlAlias: { code: aliasDeleted.code, managementCode: aliasDeleted.managementCode },
    bulkImages: { 'furry.boop': 1 },
    adminLogin: { key: system.key },
  };
  const calls: PlannedCall[] = [];
  for (const service of SERVICE_NAMES) {
    for (const { path: template, method, operation } of operationsOf(system.documents[service])) {
      if (method === 'head' || method === 'options') continue;
      const operationId = operation.operationId as string;
      const pathNames = parametersOf(operation, 'path');
      const pathParams = Object.fromEntries(pathNames.map((name) => [name, pathValues[name] ?? 'x']));
      if (operationId === 'deleteShortUrl') pathParams.code = deleted.code;
      const call: PlannedCall = {
        service,
        method,
        path: template,
        operationId,
        params: {},
        bytes: !answersJson(operation),
      };
      if (pathNames.length > 0) call.params.path = pathParams;
      if (QUERY_VALUES[operationId]) call.params.query = QUERY_VALUES[operationId];
      const requestBody = operation.requestBody as { required?: boolean } | undefined;
      if (requestBody) {
        if (!(operationId in bodies) && requestBody.required)
          throw new Error(`no body for ${operationId}: add one here`);
        call.body = bodies[operationId];
      }
      calls.push(call);
    }
  }
  // The deletes last: they remove links the other calls read.
  return calls.sort(
    (a, b) =>
      Number(a.method === 'delete' || a.operationId === 'deleteShortUrlAlias') -
      Number(b.method === 'delete' || b.operationId === 'deleteShortUrlAlias'),
  );
}

/** calls.ts: one typed call of the generated client per planned call, in order. */
function callsSource(calls: PlannedCall[]): string {
  const lines = [
    "import createClient from 'openapi-fetch';",
    ...SERVICE_NAMES.map((service) => `import type { paths as ${service}Paths } from './${service}.js';`),
    '',
    'export function calls(base: Record<string, string>, key: string, fetcher: typeof fetch): Array<() => Promise<unknown>> {',
    ...SERVICE_NAMES.map(
      (service) =>
        `  const ${service} = createClient<${service}Paths>({ baseUrl: base.${service}, headers: { Authorization: key }, fetch: fetcher });`,
    ),
    '  return [',
  ];
  for (const call of calls) {
    const init: string[] = [];
    if (call.params.path || call.params.query) init.push(`params: ${JSON.stringify(call.params)}`);
    if (call.body !== undefined) init.push(`body: ${JSON.stringify(call.body)}`);
    if (call.bytes) init.push(`parseAs: 'arrayBuffer'`);
    const args = init.length > 0 ? `, { ${init.join(', ')} }` : '';
    lines.push(`    () => ${call.service}.${call.method.toUpperCase()}('${call.path}'${args}),`);
  }
  lines.push('  ];', '}', '');
  return lines.join('\n');
}

describe('a client generated from the served documents (openapi-typescript + openapi-fetch)', () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('compiles with every operation called as a person would write it, and every answer is one its document gives', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-client-'));
    await symlink(path.join(E2E_DIR, 'node_modules'), path.join(dir, 'node_modules'));
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    for (const service of SERVICE_NAMES) {
      const ast = await openapiTS(structuredClone(system.documents[service]) as never);
      await writeFile(path.join(dir, `${service}.d.ts`), astToString(ast));
    }
    const plan = planCalls();
    await writeFile(path.join(dir, 'calls.ts'), callsSource(plan));
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
          skipLibCheck: true,
          outDir: 'out',
        },
        files: ['calls.ts'],
      }),
    );
    const tsc = spawnSync(path.join(E2E_DIR, 'node_modules/.bin/tsc'), ['-p', dir], { encoding: 'utf8' });
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
    expect(tsc.status).toBe(0);

    const validators = Object.fromEntries(
      SERVICE_NAMES.map((service) => [service, new ResponseValidator(system.documents[service])]),
    ) as Record<ServedServiceName, ResponseValidator>;
    const answers: Array<{ operation: string; status: number; problems: string[] }> = [];
    let current = '';
    const fetcher = async (input: Request): Promise<Response> => {
      const response = await fetch(new Request(input, { redirect: 'manual' }));
      const bytes = Buffer.from(await response.clone().arrayBuffer());
      const service = SERVICE_NAMES.find((name) => input.url.startsWith(system.services[name].url))!;
      answers.push({
        operation: current,
        status: response.status,
        problems: validators[service].check({
          method: input.method,
          url: input.url,
          status: response.status,
          headers: response.headers,
          body: bytes,
        }),
      });
      return response;
    };
    const compiled = (await import(pathToFileURL(path.join(dir, 'out', 'calls.js')).href)) as {
      calls: (base: Record<string, string>, key: string, f: typeof fetch) => Array<() => Promise<unknown>>;
    };
    const base = Object.fromEntries(SERVICE_NAMES.map((name) => [name, system.services[name].url]));
    const run = compiled.calls(base, system.key, fetcher as typeof fetch);
    expect(run).toHaveLength(plan.length);
    const results: unknown[] = [];
    for (const [index, call] of run.entries()) {
      current = `${plan[index]!.method.toUpperCase()} ${plan[index]!.path}`;
      results.push(await call());
    }
    expect(answers.map((a) => a.operation)).toEqual(plan.map((call) => `${call.method.toUpperCase()} ${call.path}`));
    expect(answers.filter((a) => a.problems.length > 0)).toEqual([]);
    // The slashed category with a numeric amount: two images of furry.boop.
    const random = plan.findIndex((call) => call.operationId === 'randomImages');
    expect(answers[random]?.status).toBe(200);
    // It may answer image bytes too (Accept), so the client read it as bytes: JSON by default.
    const randomBody = JSON.parse(Buffer.from((results[random] as { data: ArrayBuffer }).data).toString()) as {
      images: unknown[];
    };
    expect(randomBody.images).toHaveLength(2);
    // Every call that should succeed did: the redirect, creates, edits and deletes included.
    const statusOf = (operationId: string): number | undefined =>
      answers[plan.findIndex((call) => call.operationId === operationId)]?.status;
    expect({
      follow: statusOf('followShortUrl'),
      create: statusOf('createShortUrl'),
      bulk: statusOf('bulkCreateShortUrls'),
      update: statusOf('updateShortUrl'),
      qr: statusOf('getShortUrlQr'),
      delete: statusOf('deleteShortUrl'),
      alias: statusOf('deleteShortUrlAlias'),
      bulkImages: statusOf('bulkImages'),
    }).toEqual({ follow: 302, create: 201, bulk: 200, update: 200, qr: 200, delete: 204, alias: 204, bulkImages: 200 });
  });
});

describe.each(SERVICE_NAMES)('%s: /metrics under promtool', (service) => {
  it('passes `promtool check metrics`, with route labels as docs/api.md writes them', async () => {
    // Traffic on the routes whose patterns Express writes otherwise: `/:code\+` and `/*category`.
    const { url } = system.services[service];
    if (service === 'shortener') await fetch(`${url}/${system.links[0]!.code}+`).then((res) => res.arrayBuffer());
    if (service === 'images') await fetch(`${url}/furry/boop`).then((res) => res.arrayBuffer());
    const text = await (await fetch(`${system.services[service].metricsUrl}/metrics`)).text();
    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(promtool.error).toBeUndefined();
    expect(`${promtool.stdout}${promtool.stderr}`).toBe('');
    expect(promtool.status).toBe(0);
    expect(text).not.toContain('\\\\');
    if (service === 'shortener') expect(text).toContain('route="/:code+"');
    if (service === 'images') expect(text).toContain('route="/:category"');
    expect(text).not.toMatch(/route="[^"]*\/\*/);
  });
});
