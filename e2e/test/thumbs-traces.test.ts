import { randomBytes } from 'node:crypto';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { makeWebm, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { createDataSource, loadBaseConfig, migrateDatabase } from '@pawlink/service-kit';
import {
  admin,
  createTestContext,
  request,
  startCallbackReceiver,
  startService,
  startWorker,
  type CallbackReceiver,
  type NodeProcess,
  type TestContext,
} from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attribute,
  descendsFrom,
  otlpEnv,
  serviceOf,
  SpanKinds,
  startTraceReceiver,
  type OtlpSpan,
  type TraceReceiver,
} from '../support/otlp-receiver.js';

/*
 * One trace per thumbnail request across the real processes (issue 41): the thumbs API, a
 * render-only worker and a callbacks-only worker, each sending its spans to the OTLP/JSON receiver
 * here. One PUT with a callbackURL must give one trace: the API's server span, the job queued under
 * it, the job's span on the render worker's processor thread with each step under it, and on the
 * callbacks worker the delivery's attempt with its POST, whose traceparent the receiver gets. No
 * secret (the API key, the webhook secret, the secrets key) may be in any span.
 */

let ctx: TestContext;
let traces: TraceReceiver;
let callbacks: CallbackReceiver;
let board: FakeBoard;
let apiUrl: string;
let workerEnv: Record<string, string>;
let apiKey: string;
let webhookSecret: string;
let secretsKey: string;
let video: { id: number; md5: string };
const procs: NodeProcess[] = [];

const logs = (): string => procs.map((p) => `--- ${p.name}\n${p.tail(3000)}`).join('\n');

beforeAll(async () => {
  ctx = await createTestContext('e2ethumbtraces');
  traces = await startTraceReceiver();
  callbacks = await startCallbackReceiver();
  board = await startFakeBoard();
  video = { id: 9301, md5: board.addPost({ id: 9301, ext: 'webm' }, await makeWebm(2, 320, 240)).md5 };
  secretsKey = randomBytes(32).toString('hex');
  const env = {
    ...ctx.env,
    LOG_LEVEL: 'info',
    MEDIA_URL: 'http://media.test/thumbs',
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_REQUESTS_PER_SECOND: '10',
    THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(board.staticUrl).host,
    THUMBS_CALLBACK_PRIVATE_HOSTS: callbacks.host,
    PAWLINK_SECRETS_KEY: secretsKey,
    ...otlpEnv(traces),
  };
  const base = loadBaseConfig(env);
  await migrateDatabase(base.database, authDatabase);
  const auth = createDataSource(base.database, { ...authDatabase, poolSize: 1 });
  await auth.initialize();
  const { key, record } = await new ApiKeyRepository(auth).create({
    name: 'traced-bot',
    contact: 'bot@example.com',
    flags: ['thumbs'],
    rateLimitRoute: 0,
    rateLimitGlobal: 0,
  });
  await auth.destroy();
  apiKey = key;
  const made = await admin(env, ['apikey', 'webhook-secret', String(record.id)]);
  expect(made.code, made.stderr).toBe(0);
  webhookSecret = made.stdout.trim().split('\n').at(-1)!;

  workerEnv = env;
  procs.push(startWorker('callbacks', { ...env, THUMBS_WORKER_ROLES: 'callbacks' }));
  const api = await startService('thumbs', env);
  procs.unshift(api);
  apiUrl = api.url;
}, 120_000);

afterAll(async () => {
  await Promise.all(procs.map((proc) => proc.stop()));
  await callbacks?.close();
  await board?.close();
  await traces?.close();
  await ctx?.cleanup();
});

const named = (spans: OtlpSpan[], name: string, kind?: number): OtlpSpan[] =>
  spans.filter((s) => s.name === name && (kind === undefined || s.kind === kind));

describe('one trace per thumbnail request, across the API and the workers', () => {
  it('chains PUT → queued job → the job and its steps → the callback attempt and its POST', async () => {
    // The client's callback URL carries its own token: no span may record it.
    const callbackToken = randomBytes(12).toString('hex');
    const callbackPath = `/traced?token=${callbackToken}`;
    const put = await request(
      `${apiUrl}/${video.id}/gif?callbackURL=${encodeURIComponent(callbacks.url(callbackPath))}`,
      {
        method: 'PUT',
        headers: { authorization: apiKey },
      },
    );
    expect(put.status, logs()).toBe(202);
    // A check while the job waits (no render worker yet) is a request of its own, reading the job.
    const check = await request(`${apiUrl}/check/${video.md5}/gif`, { headers: { authorization: apiKey } });
    expect(check.status).toBe(200); // processing
    procs.push(startWorker('render', { ...workerEnv, THUMBS_WORKER_ROLES: 'render' }));
    const [call] = await callbacks.waitForCalls(callbackPath, 1, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${logs()}`);
    });

    const isPut = (s: OtlpSpan) => s.kind === SpanKinds.SERVER && attribute(s, 'http.route') === '/:id/:type';
    const isCheck = (s: OtlpSpan) => s.kind === SpanKinds.SERVER && attribute(s, 'http.route') === '/check/:md5/:type';
    const isCallbackPost = (s: OtlpSpan) =>
      s.kind === SpanKinds.CLIENT &&
      attribute(s, 'http.request.method') === 'POST' &&
      String(attribute(s, 'url.full')).includes('/traced');
    const spans = await traces.waitForSpans(
      (all) =>
        all.some(isPut) &&
        all.some(isCheck) &&
        all.some(isCallbackPost) &&
        named(all, 'process thumbs', SpanKinds.CONSUMER).length > 0 &&
        // The attempt ends after its POST, and may be exported in a later batch.
        named(all, 'process thumbnail-callbacks', SpanKinds.CONSUMER).length > 0 &&
        named(all, 'write file').length > 0,
      logs,
    );

    // The API: the PUT's server span (its key's id, not the key) and the job queued under it.
    const putSpan = spans.find(isPut)!;
    expect(putSpan.name).toBe('PUT /:id/:type');
    expect(attribute(putSpan, 'http.response.status_code')).toBe(202);
    expect(attribute(putSpan, 'pawlink.key.id')).toBeDefined();
    const trace = spans.filter((s) => s.traceId === putSpan.traceId);
    const under = (ancestor: OtlpSpan) => trace.filter((s) => descendsFrom(s, ancestor, trace));
    const queued = under(putSpan).find((s) => s.kind === SpanKinds.PRODUCER && s.name.startsWith('add thumbs'));
    expect(queued, JSON.stringify(trace.map((s) => s.name))).toBeDefined();

    // The render worker: the job's span continues the queued job's, its steps under it.
    const job = named(trace, 'process thumbs', SpanKinds.CONSUMER)[0];
    expect(job, JSON.stringify(trace.map((s) => s.name))).toBeDefined();
    expect(descendsFrom(job!, queued!, trace)).toBe(true);
    expect(attribute(job!, 'messaging.message.id')).toBe(`${video.md5}.gif`);
    const steps = under(job!).map((s) => s.name);
    for (const step of ['board lookup', 'download', 'decode video', 'encode gif', 'write file'])
      expect(steps, step).toContain(step);

    // The callbacks worker: one attempt, its POST under it, in the same trace.
    const attempt = named(trace, 'process thumbnail-callbacks', SpanKinds.CONSUMER)[0];
    expect(attempt, JSON.stringify(trace.map((s) => s.name))).toBeDefined();
    expect(descendsFrom(attempt!, putSpan, trace)).toBe(true);
    const post = under(attempt!).find(isCallbackPost);
    expect(post).toBeDefined();
    expect(attribute(post!, 'http.response.status_code')).toBe(200);
    expect(attribute(post!, 'url.full')).toBe(callbacks.url('/traced'));
    // What the receiver got: that POST's span as its parent, in the request's trace.
    expect(call!.headers.traceparent).toBe(`00-${putSpan.traceId}-${post!.spanId}-01`);

    // The check: a request of its own, in its own trace, linked to the queued job's span.
    const checkSpan = spans.find(isCheck)!;
    expect(checkSpan.traceId).not.toBe(putSpan.traceId);
    const checkTrace = spans.filter((s) => s.traceId === checkSpan.traceId);
    const links = checkTrace.flatMap((s) => s.links ?? []);
    expect(links).toContainEqual(expect.objectContaining({ traceId: putSpan.traceId, spanId: queued!.spanId }));

    // Three processes took part, each under its own service name.
    const services = new Set(
      traces
        .received()
        .filter((r) => r.span.traceId === putSpan.traceId)
        .map(serviceOf),
    );
    expect([...services].sort()).toEqual(['pawlink-thumbs', 'pawlink-thumbs-worker']);
    const processes = new Set(
      traces
        .received()
        .filter((r) => r.span.traceId === putSpan.traceId)
        .map((r) => r.resource.find((a) => a.key === 'process.pid')?.value.intValue),
    );
    expect(processes.size).toBe(3);

    // No secret anywhere: not the API key, the webhook secret, the secrets key; no header captured.
    const everything = traces.bodies.join('\n');
    for (const secret of [apiKey, webhookSecret, secretsKey, callbackToken]) expect(everything).not.toContain(secret);
    expect(everything).not.toContain('whsec_');
    expect(everything.toLowerCase()).not.toContain('authorization');
    expect(everything.toLowerCase()).not.toContain('webhook-signature');
  });
});
