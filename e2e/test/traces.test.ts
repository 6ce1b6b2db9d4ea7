import { randomBytes } from 'node:crypto';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { admin, createTestContext, startService, type ServiceProcess, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attribute,
  descendsFrom,
  otlpEnv,
  serviceOf,
  SpanKinds,
  startTraceReceiver,
  text,
  type OtlpSpan,
  type TraceReceiver,
} from '../support/otlp-receiver.js';

/*
 * OpenTelemetry traces from the real shortener process (issue 41): started with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver here (OTLP/HTTP, JSON), a few requests with a
 * key must give one server span per request (route pattern, status, the key's id), the MySQL and
 * Redis calls as its descendants, log lines carrying the trace and span ids, and no secret in any
 * attribute or resource. The images service, started the same way, sends its request spans too.
 */

/** The created link's target: stored by an INSERT, so in its values. */
const TARGET = 'https://example.com/traced-target';
const SERVER = SpanKinds.SERVER;

let ctx: TestContext;
let receiver: TraceReceiver;
let shortener: ServiceProcess;
let key: string;
let keyId: number;
let secretsKey: string;

beforeAll(async () => {
  ctx = await createTestContext('e2etraces');
  receiver = await startTraceReceiver();
  const migrated = await admin(ctx.env, ['migrate']);
  expect(migrated.code, migrated.stderr).toBe(0);
  const auth = createDataSource(loadBaseConfig(ctx.env).database, { ...authDatabase, poolSize: 1 });
  await auth.initialize();
  const made = await new ApiKeyRepository(auth).create({
    name: 'traces',
    contact: 'traces@example.com',
    flags: ['shortener'],
  });
  await auth.destroy();
  key = made.key;
  keyId = made.record.id;
  secretsKey = randomBytes(32).toString('hex');
  shortener = await startService('shortener', {
    ...ctx.env,
    LOG_LEVEL: 'http',
    PAWLINK_SECRETS_KEY: secretsKey,
    ...otlpEnv(receiver),
  });
}, 120_000);

afterAll(async () => {
  await shortener?.stop();
  await receiver?.close();
  await ctx?.cleanup();
});

const waitForSpans = (ready: (spans: OtlpSpan[]) => boolean) => receiver.waitForSpans(ready, () => shortener.tail());

const serverSpan = (spans: OtlpSpan[], method: string, route: string): OtlpSpan | undefined =>
  spans.find(
    (s) => s.kind === SERVER && attribute(s, 'http.request.method') === method && attribute(s, 'http.route') === route,
  );

describe('traces from the shortener', () => {
  it('has one server span per request, its database and Redis calls under it, and no secret anywhere', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${shortener.url}/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: TARGET }),
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { code: string; managementCode: string } };
    const redirect = await fetch(`${shortener.url}/${data.code}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const patched = await fetch(`${shortener.url}/${data.code}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ managementCode: data.managementCode, credit: 'traced' }),
    });
    expect(patched.status).toBe(200);

    const spans = await waitForSpans(
      (all) =>
        serverSpan(all, 'POST', '/create') !== undefined &&
        serverSpan(all, 'GET', '/:code') !== undefined &&
        serverSpan(all, 'PATCH', '/:code') !== undefined,
    );
    const create = serverSpan(spans, 'POST', '/create')!;
    expect(create.name).toBe('POST /create');
    expect(attribute(create, 'http.response.status_code')).toBe(201);
    expect(Number(attribute(create, 'pawlink.key.id'))).toBe(keyId);
    const visit = serverSpan(spans, 'GET', '/:code')!;
    expect(attribute(visit, 'http.response.status_code')).toBe(302);
    expect(attribute(visit, 'pawlink.key.id')).toBeUndefined(); // a redirect takes no key
    const patch = serverSpan(spans, 'PATCH', '/:code')!;
    expect(attribute(patch, 'http.response.status_code')).toBe(200);

    // The instrumented modules (loaded after the SDK started) make spans under the request's.
    const under = (server: OtlpSpan) => spans.filter((s) => descendsFrom(s, server, spans));
    const createChildren = under(create);
    expect(createChildren.some((s) => attribute(s, 'express.type') === 'request_handler')).toBe(true);
    expect(createChildren.some((s) => /mysql/.test(text(s, 'db.system.name', 'db.system')))).toBe(true);
    const redisSpans = [create, visit, patch]
      .flatMap(under)
      .filter((s) => /redis/.test(text(s, 'db.system.name', 'db.system')));
    expect(redisSpans.length).toBeGreaterThan(0);
    // A Redis span names its command, never its arguments (keys' data, AUTH's password).
    for (const span of redisSpans) {
      expect(text(span, 'db.query.text', 'db.statement')).toMatch(/^[a-z]*$/i);
    }

    const resource = receiver.received()[0]!.resource;
    expect(resource.find((a) => a.key === 'service.name')?.value.stringValue).toBe('pawlink-shortener');

    // Nothing secret: not the key, the secrets key, the management code; no header captured.
    const everything = receiver.bodies.join('\n');
    for (const secret of [key, secretsKey, data.managementCode]) expect(everything).not.toContain(secret);
    // Nor what a client stored: the statements carry no values.
    expect(everything).not.toContain(TARGET);
    expect(everything.toLowerCase()).not.toContain('authorization');

    // The request's own log line carries its trace and span ids.
    const requestLines = shortener.lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { message?: string; path?: string; traceId?: string; spanId?: string })
      .filter((line) => line.message === 'request' && line.path === '/create');
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]!.traceId).toBe(create.traceId);
    expect(spans.some((s) => s.traceId === create.traceId && s.spanId === requestLines[0]!.spanId)).toBe(true);
  });

  it('starts no trace for a readiness probe or a metrics scrape', async () => {
    const serverPaths = () =>
      receiver
        .received()
        .filter((r) => r.span.kind === SERVER)
        .map((r) => attribute(r.span, 'url.path'));
    const onlineBefore = serverPaths().filter((path) => path === '/online').length;
    expect((await fetch(`${shortener.url}/ready`)).status).toBe(200);
    expect((await fetch(`${shortener.metricsUrl}/metrics`)).status).toBe(200);
    // A request after them: once its span is in, theirs (ended before it) would be too.
    expect((await fetch(`${shortener.url}/online`)).status).toBe(200);
    await waitForSpans(() => serverPaths().filter((path) => path === '/online').length > onlineBefore);
    expect(serverPaths()).not.toContain('/ready');
    expect(serverPaths()).not.toContain('/metrics');
  });

  it('comes from the images service too, under its own name', async () => {
    const images = await startService('images', { ...ctx.env, LOG_LEVEL: 'warn', ...otlpEnv(receiver) });
    try {
      const missing = await fetch(`${images.url}/images/999999.json`, { headers: { authorization: `Bearer ${key}` } });
      expect(missing.status).toBeGreaterThanOrEqual(400);
      await receiver.waitForSpans(
        () =>
          receiver
            .received()
            .some(
              (r) =>
                r.span.kind === SERVER &&
                attribute(r.span, 'http.route') === '/images/:id.json' &&
                serviceOf(r) === 'pawlink-images',
            ),
        () => images.tail(),
      );
    } finally {
      await images.stop();
    }
    expect(receiver.bodies.join('\n')).not.toContain(key);
  });
});
