import { randomBytes } from 'node:crypto';
import { ApiKeyRepository, authDatabase, parseSecretsKey, sealSecret, WebhookSecretService } from '@pawlink/auth';
import {
  THUMBNAIL_FAILURE_REASONS,
  THUMBNAIL_JOB,
  THUMBNAIL_QUEUE,
  thumbnailCallbacksKey,
  thumbnailJobId,
  thumbnailQueuePrefix,
  type ThumbnailCallbackDelivery,
  type ThumbnailCallbackEvent,
  type ThumbnailJobPayload,
} from '@pawlink/contracts';
import { createDataSource, createLogger, createRedis, migrateDatabase } from '@pawlink/service-kit';
import {
  createTestContext,
  startCallbackReceiver,
  verifyCallbackSignature,
  type CallbackReceiver,
  type ReceivedCallback,
  type TestContext,
} from '@pawlink/test-kit';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Registry } from 'prom-client';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallbackContainer, type CallbackContainer } from '../src/callback-container.js';
import { loadThumbsWorkerConfig, type ThumbsWorkerConfig } from '../src/config.js';
import { createCallbackDeliveryWorker, type CallbackDeliveryWorker } from '../src/jobs/callback-delivery.worker.js';
import { startThumbnailEndWatcher, type ThumbnailEndWatcher } from '../src/jobs/thumbnail-end.worker.js';
import { ThumbsWorkerMetrics } from '../src/metrics/worker.metrics.js';

/*
 * The worker's side of completion callbacks against real Redis, MariaDB and a receiver on
 * loopback: thumbnail jobs end (a stand-in worker completes or fails them), the end watcher
 * queues one delivery per registered URL, and the delivery worker POSTs them signed, on a short
 * retry schedule.
 */

const SCHEDULE_MS = '200,400,600,800';
let ctx: TestContext;
let receiver: CallbackReceiver;
let config: ThumbsWorkerConfig;
let redis: RedisClient;
let auth: DataSource;
let secrets: WebhookSecretService;
let keys: ApiKeyRepository;
let secretsKeyBytes: Buffer;
let keyId: number;
let secret: string;
const registry = new Registry();
let callbacks: CallbackContainer;
let deliveries: CallbackDeliveryWorker;
let watcher: ThumbnailEndWatcher;
let thumbnails: Queue<ThumbnailJobPayload>;
let renderer: Worker<ThumbnailJobPayload>;
const closers: Array<() => Promise<unknown>> = [];

/** How the stand-in renderer ends each md5's job. */
const endings = new Map<string, () => unknown>();

const newMd5 = (): string => randomBytes(16).toString('hex');

/** Registers `url` for the job of (md5, gif) as PUT ?callbackURL= does, then queues and ends the job. */
async function endJob(md5: string, urls: string[], ending: () => unknown): Promise<void> {
  // As the API registers: `<key id>:<Redis time in ms>`.
  const [seconds, micros] = await redis.time();
  for (const url of urls)
    await redis.hset(
      thumbnailCallbacksKey(ctx.redisPrefix, thumbnailJobId(md5, 'gif')),
      url,
      `${keyId}:${Number(seconds) * 1000 + Math.floor(Number(micros) / 1000)}`,
    );
  endings.set(md5, ending);
  await thumbnails.add(
    THUMBNAIL_JOB,
    { md5, type: 'gif', requestedAt: Date.now() },
    { jobId: thumbnailJobId(md5, 'gif'), attempts: 1 },
  );
}

const callbackQueue = (): Queue<ThumbnailCallbackDelivery> => callbacks.queue;

/** The Standard Webhooks check of a call, as the `standardwebhooks` library and svix's verifier do it; throws when it fails. */
function verifyStandard(call: ReceivedCallback, standardSecret: string): unknown {
  expect(() => new SvixWebhook(standardSecret).verify(call.body, call.headers)).not.toThrow();
  return new Webhook(standardSecret).verify(call.body, call.headers);
}

/** A counter's value by label, as scraped. */
async function counted(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await registry.getSingleMetric(name)!.get();
  const value = metric.values.find((entry) => Object.entries(labels).every(([k, v]) => entry.labels[k] === v));
  return value?.value ?? 0;
}

async function deliveryOf(
  md5: string,
  timeoutMs = 20_000,
): Promise<{ state: string; attemptsMade: number; failedReason: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await callbackQueue().getJobs(['completed', 'failed']);
    const job = jobs.find((candidate) => candidate.data.payload.md5 === md5);
    if (job) return { state: await job.getState(), attemptsMade: job.attemptsMade, failedReason: job.failedReason };
    if (Date.now() > deadline) throw new Error(`no finished delivery for ${md5}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  ctx = await createTestContext('callbacks');
  closers.push(() => ctx.cleanup());
  receiver = await startCallbackReceiver();
  closers.push(() => receiver.close());
  const secretsKey = randomBytes(32).toString('hex');
  config = loadThumbsWorkerConfig({
    ...ctx.env,
    THUMBS_CALLBACK_PRIVATE_HOSTS: receiver.host,
    THUMBS_CALLBACK_RETRY_DELAYS_MS: SCHEDULE_MS,
    THUMBS_CALLBACK_TIMEOUT_MS: '400',
    PAWLINK_SECRETS_KEY: secretsKey,
    MEDIA_URL: 'http://media.test/thumbs',
  });
  await migrateDatabase(config.database, authDatabase);
  auth = createDataSource(config.database, { ...authDatabase, poolSize: 2 });
  await auth.initialize();
  closers.push(() => auth.destroy());
  keys = new ApiKeyRepository(auth);
  keyId = (await keys.create({ name: 'bot', contact: 'bot@example.com', flags: ['thumbs'] })).record.id;
  secretsKeyBytes = parseSecretsKey(secretsKey)!;
  secrets = new WebhookSecretService({ keys, secretsKey: secretsKeyBytes });
  secret = (await secrets.rotate(keyId))!;

  redis = createRedis(config.redis);
  const queueRedis = createRedis(config.redis, { forQueue: true });
  const workerRedis = createRedis(config.redis, { forQueue: true });
  const eventsRedis = createRedis(config.redis, { forQueue: true });
  const renderRedis = createRedis(config.redis, { forQueue: true });
  closers.push(() => {
    for (const connection of [redis, queueRedis, workerRedis, eventsRedis, renderRedis]) connection.disconnect();
    return Promise.resolve();
  });
  const logger = createLogger('thumbs-worker', 'error', { silent: true });
  callbacks = createCallbackContainer(config, { redis, queueRedis, authDataSource: () => Promise.resolve(auth) });
  closers.push(() => callbacks.close());
  deliveries = createCallbackDeliveryWorker(config, workerRedis, callbacks.delivery, logger, {
    metrics: new ThumbsWorkerMetrics(registry),
  });
  closers.push(() => deliveries.close());
  watcher = await startThumbnailEndWatcher({
    connection: eventsRedis,
    redisPrefix: ctx.redisPrefix,
    cursor: callbacks.cursor,
    dispatch: callbacks.dispatch,
    logger,
  });
  closers.push(() => watcher.close());

  thumbnails = new Queue(THUMBNAIL_QUEUE, { connection: queueRedis, prefix: thumbnailQueuePrefix(ctx.redisPrefix) });
  closers.push(() => thumbnails.close());
  renderer = new Worker<ThumbnailJobPayload>(
    THUMBNAIL_QUEUE,
    (job) => Promise.resolve().then(() => endings.get(job.data.md5)?.()),
    { connection: renderRedis, prefix: thumbnailQueuePrefix(ctx.redisPrefix), concurrency: 4 },
  );
  renderer.on('error', () => undefined);
  closers.push(() => renderer.close());
  await Promise.all([deliveries.waitUntilReady(), renderer.waitUntilReady()]);
});

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
});

describe('completion callbacks', () => {
  it("tells a receiver thumbnail.done, thumbnail.failed and thumbnail.timeout, signed with the key's secret", async () => {
    const [done, failed, timedOut] = [newMd5(), newMd5(), newMd5()];
    await endJob(done, [receiver.url('/done')], () => ({ ok: true }));
    await endJob(failed, [receiver.url('/failed')], () => {
      throw new UnrecoverableError(THUMBNAIL_FAILURE_REASONS.unreadable);
    });
    await endJob(timedOut, [receiver.url('/timeout')], () => {
      throw new UnrecoverableError('timeout: thumbnail generation took longer than 1000 ms');
    });
    const [[doneCall], [failedCall], [timeoutCall]] = await Promise.all([
      receiver.waitForCalls('/done', 1),
      receiver.waitForCalls('/failed', 1),
      receiver.waitForCalls('/timeout', 1),
    ]);
    for (const call of [doneCall!, failedCall!, timeoutCall!]) {
      expect(call.contentType).toBe('application/json');
      expect(verifyCallbackSignature(call, secret), call.signature).not.toBeNull();
      // Standard Webhooks, verified by the libraries integrators use, with the same secret.
      expect(verifyStandard(call, secret)).toEqual(JSON.parse(call.body));
    }
    expect(doneCall!.headers['webhook-id']).toMatch(new RegExp(`^evt_${done}_gif_\\d+-\\d+$`));
    const bodies = [doneCall, failedCall, timeoutCall].map((call) => JSON.parse(call!.body) as ThumbnailCallbackEvent);
    expect(bodies[0]).toEqual({
      event: 'thumbnail.done',
      md5: done,
      type: 'gif',
      url: `http://media.test/thumbs/${done}.gif`,
      code: null,
      error: null,
      at: expect.any(Number),
    });
    expect(bodies[1]).toEqual({
      event: 'thumbnail.failed',
      md5: failed,
      type: 'gif',
      url: null,
      code: 1060,
      error: THUMBNAIL_FAILURE_REASONS.unreadable,
      at: expect.any(Number),
    });
    expect(bodies[2]).toEqual({
      event: 'thumbnail.timeout',
      md5: timedOut,
      type: 'gif',
      url: null,
      code: 1065,
      error: 'timeout: thumbnail generation took longer than 1000 ms',
      at: expect.any(Number),
    });
    // Registrations are used up: nothing is left to fire for the next job of the same thumbnail.
    expect(await redis.exists(thumbnailCallbacksKey(ctx.redisPrefix, thumbnailJobId(done, 'gif')))).toBe(0);
  });

  it('calls each registered URL once per job end, several URLs each', async () => {
    const md5 = newMd5();
    await endJob(md5, [receiver.url('/one'), receiver.url('/two'), receiver.url('/one')], () => ({ ok: true }));
    await receiver.waitForCalls('/one', 1);
    await receiver.waitForCalls('/two', 1);
    await deliveryOf(md5);
    await watcher.idle();
    expect(receiver.calls.filter((call) => call.path === '/one' || call.path === '/two')).toHaveLength(2);
  });

  it('retries a receiver answering 500 twice, then stops at its 200: three calls, one success', async () => {
    receiver.answerWith((path, n) => (path === '/flaky' && n <= 2 ? 500 : 200));
    const md5 = newMd5();
    await endJob(md5, [receiver.url('/flaky')], () => ({ ok: true }));
    const calls = await receiver.waitForCalls('/flaky', 3);
    expect(await deliveryOf(md5)).toMatchObject({ state: 'completed', attemptsMade: 3 });
    expect(calls).toHaveLength(3);
    process.stderr.write(
      `callbacks: attempts to a receiver answering 500, 500, 200 at +${calls.map((call) => call.receivedAt - calls[0]!.receivedAt).join(', +')} ms from the first (schedule ${SCHEDULE_MS})\n`,
    );
    // Each attempt is signed afresh, and each signature is valid; the event's webhook-id is the same on every one.
    for (const call of calls) {
      expect(verifyCallbackSignature(call, secret)).not.toBeNull();
      verifyStandard(call, secret);
    }
    expect(new Set(calls.map((call) => call.headers['webhook-id'])).size).toBe(1);
  });

  it('gives up on a receiver that never answers after the five attempts', async () => {
    receiver.answerWith((path) => (path === '/silent' ? 'hang' : 200));
    const md5 = newMd5();
    await endJob(md5, [receiver.url('/silent')], () => ({ ok: true }));
    const delivery = await deliveryOf(md5, 30_000);
    expect(delivery).toMatchObject({ state: 'failed', attemptsMade: 5 });
    const silent = receiver.calls.filter((call) => call.path === '/silent');
    expect(silent).toHaveLength(5);
    process.stderr.write(
      `callbacks: attempts to a silent receiver at +${silent.map((call) => call.receivedAt - silent[0]!.receivedAt).join(', +')} ms from the first (schedule ${SCHEDULE_MS}, 400 ms timeout)\n`,
    );
  });

  it('signs each attempt with the secret current at that moment: after a rotation, never the old one', async () => {
    let newSecret = '';
    // The first attempt is answered 503 only once the secret has been rotated.
    receiver.answerWith(async (path, n) => {
      if (path !== '/rotating' || n > 1) return 200;
      newSecret = (await secrets.rotate(keyId))!;
      return 503;
    });
    const md5 = newMd5();
    await endJob(md5, [receiver.url('/rotating')], () => ({ ok: true }));
    const [first, second] = await receiver.waitForCalls('/rotating', 2);
    expect(verifyCallbackSignature(first!, secret)).not.toBeNull();
    expect(verifyCallbackSignature(second!, newSecret)).not.toBeNull();
    expect(verifyCallbackSignature(second!, secret)).toBeNull();
    secret = newSecret;
  });

  it('keeps a rotated secret signing beside the new one when asked: two signatures, either verifies', async () => {
    const before = secret;
    const rotated = (await secrets.rotate(keyId, { keepPreviousMs: 60_000 }))!;
    const md5 = newMd5();
    await endJob(md5, [receiver.url('/overlap')], () => ({ ok: true }));
    const [call] = await receiver.waitForCalls('/overlap', 1);
    expect(call!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    verifyStandard(call!, rotated);
    verifyStandard(call!, before);
    // The legacy header is signed with the new secret only.
    expect(verifyCallbackSignature(call!, rotated)).not.toBeNull();
    expect(verifyCallbackSignature(call!, before)).toBeNull();
    // A rotation without the option ends the overlap at once.
    secret = (await secrets.rotate(keyId))!;
  });

  it('signs with a secret made before the standard form (base64url): the libraries verify it re-encoded as base64', async () => {
    const bytes = randomBytes(32);
    const legacy = `whsec_${bytes.toString('base64url')}`;
    await keys.setWebhookSecretSealed(keyId, sealSecret(legacy, secretsKeyBytes, keyId));
    const md5 = newMd5();
    await endJob(md5, [receiver.url('/legacy-secret')], () => ({ ok: true }));
    const [call] = await receiver.waitForCalls('/legacy-secret', 1);
    expect(verifyCallbackSignature(call!, legacy)).not.toBeNull();
    expect(verifyStandard(call!, `whsec_${bytes.toString('base64')}`)).toEqual(JSON.parse(call!.body));
    secret = (await secrets.rotate(keyId))!;
  });

  it('stops at a 410 and drops the deliveries to that URL registered before it; a registration after it is sent', async () => {
    receiver.answerWith((path) => (path === '/gone' ? 410 : 200));
    const before = {
      gone: await counted('thumbs_callback_attempts_total', { outcome: 'gone' }),
      disabled: await counted('thumbs_callback_attempts_total', { outcome: 'disabled' }),
      ended: await counted('thumbs_callback_deliveries_total', { result: 'gone' }),
    };
    const [first, queuedBefore] = [newMd5(), newMd5()];
    // Both registered now; the second job ends only after the first delivery's 410.
    let releaseSecond: () => void = () => undefined;
    const secondEnds = new Promise<void>((resolve) => (releaseSecond = resolve));
    await endJob(queuedBefore, [receiver.url('/gone')], () => secondEnds.then(() => ({ ok: true })));
    await endJob(first, [receiver.url('/gone')], () => ({ ok: true }));
    const gone = await deliveryOf(first);
    expect(gone).toMatchObject({ state: 'failed', attemptsMade: 1 });
    expect(gone.failedReason).toContain('410');
    releaseSecond();
    const dropped = await deliveryOf(queuedBefore);
    expect(dropped).toMatchObject({ state: 'failed', attemptsMade: 1 });
    expect(dropped.failedReason).toContain('not sent');
    expect(receiver.calls.filter((call) => call.path === '/gone')).toHaveLength(1);
    // Asked again after the 410: the integrator wants it back.
    receiver.answerWith(() => 200);
    const after = newMd5();
    await endJob(after, [receiver.url('/gone')], () => ({ ok: true }));
    expect(await deliveryOf(after)).toMatchObject({ state: 'completed', attemptsMade: 1 });
    expect(receiver.calls.filter((call) => call.path === '/gone')).toHaveLength(2);
    expect(await counted('thumbs_callback_attempts_total', { outcome: 'gone' })).toBe(before.gone + 1);
    expect(await counted('thumbs_callback_attempts_total', { outcome: 'disabled' })).toBe(before.disabled + 1);
    expect(await counted('thumbs_callback_deliveries_total', { result: 'gone' })).toBe(before.ended + 2);
  });

  it('fails a delivery for good when the callback host is at a private address it may not reach', async () => {
    const md5 = newMd5();
    // Another port on loopback: not the listed receiver host.
    await endJob(md5, ['http://127.0.0.1:9/hook'], () => ({ ok: true }));
    const delivery = await deliveryOf(md5);
    expect(delivery).toMatchObject({ state: 'failed', attemptsMade: 1 });
    expect(delivery.failedReason).toContain('not a public address');
  });
});
