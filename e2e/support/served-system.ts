import type { OpenApiDocument } from '@pawlink/contracts/openapi';
import {
  admin,
  createKey,
  createTestContext,
  jsonInit,
  request,
  startService,
  type ServiceProcess,
  type TestContext,
} from '@pawlink/test-kit';

/**
 * The three services as real processes on a database and Redis prefix of their own, with the demo
 * images seeded, a key with every flag and two editable short links: what the tests that point
 * outside tools at the system (linters, a generated client, promtool) need. Each service's OpenAPI
 * document is read as it serves it (`GET /openapi.json`), never from the files that describe it,
 * so these tests check whatever produces the documents.
 */

export const SERVICE_NAMES = ['shortener', 'images', 'thumbs'] as const;
export type ServedServiceName = (typeof SERVICE_NAMES)[number];

export interface ServedSystem {
  ctx: TestContext;
  services: Record<ServedServiceName, ServiceProcess>;
  documents: Record<ServedServiceName, OpenApiDocument>;
  /** A key with every flag and no rate limit. */
  key: string;
  /** Editable short links: [code, management code]. */
  links: Array<{ code: string; managementCode: string }>;
  stop(): Promise<void>;
}

export async function startServedSystem(label: string): Promise<ServedSystem> {
  const ctx = await createTestContext(label);
  const migrated = await admin(ctx.env, ['migrate']);
  if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
  const seeded = await admin(ctx.env, ['images', 'seed-demo']);
  if (seeded.code !== 0) throw new Error(`seed-demo failed: ${seeded.stderr}`);
  const env = {
    ...ctx.env,
    LOG_LEVEL: 'warn',
    BOARD_URL: 'http://127.0.0.1:9',
    BOARD_STATIC_URL: 'http://127.0.0.1:9',
  };
  const started = await Promise.all(SERVICE_NAMES.map((name) => startService(name, env)));
  const services = Object.fromEntries(started.map((service) => [service.name, service])) as ServedSystem['services'];
  const key = await createKey(ctx.env, 'shortener,thumbs,images_bulk,admin', [
    '--rate-limit-route',
    '0',
    '--rate-limit-global',
    '0',
  ]);
  const documents = {} as ServedSystem['documents'];
  for (const name of SERVICE_NAMES)
    documents[name] = (await request<OpenApiDocument>(`${services[name].url}/openapi.json`)).body;
  const links: ServedSystem['links'] = [];
  for (let i = 0; i < 3; i++) {
    const created = await request(
      `${services.shortener.url}/create`,
      jsonInit('POST', { url: `https://example.com/${label}/${i}` }, { authorization: key }),
    );
    if (created.status !== 201) throw new Error(`create failed: ${created.text}`);
    links.push({ code: created.body.data.code, managementCode: created.body.data.managementCode });
  }
  return {
    ctx,
    services,
    documents,
    key,
    links,
    async stop() {
      await Promise.all(Object.values(services).map((service) => service.stop()));
      await ctx.cleanup();
    },
  };
}

/** Every operation of a document: path template, method and the operation object. */
export function operationsOf(
  document: OpenApiDocument,
): Array<{ path: string; method: string; operation: Record<string, unknown> }> {
  const found: Array<{ path: string; method: string; operation: Record<string, unknown> }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(method)) continue;
      found.push({ path, method, operation: operation as Record<string, unknown> });
    }
  }
  return found;
}

/** The parameters of an operation in one place (`query`, `path`), by name. */
export function parametersOf(operation: Record<string, unknown>, where: 'query' | 'path'): string[] {
  const parameters = (operation.parameters ?? []) as Array<{ name: string; in: string }>;
  return parameters.filter((parameter) => parameter.in === where).map((parameter) => parameter.name);
}
