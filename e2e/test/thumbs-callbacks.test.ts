import { randomBytes } from 'node:crypto';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { createDataSource, loadBaseConfig, migrateDatabase } from '@pawlink/service-kit';
import {
  admin,
  createTestContext,
  request,
  startCallbackReceiver,
  startService,
  startWorker,
  verifyCallbackSignature,
  type CallbackReceiver,
  type NodeProcess,
  type ReceivedCallback,
  type TestContext,
} from '@pawlink/test-kit';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Completion callbacks through the real processes: the thumbs API takes `?callbackURL=`, a
 * render-only worker makes the thumbnail, and callbacks-only workers deliver the signed POST to a
 * receiver on loopback (THUMBS_CALLBACK_PRIVATE_HOSTS). The webhook secret is made with bin/admin.
 */

let ctx: TestContext;
let board: FakeBoard;
let receiver: CallbackReceiver;
let env: Record<string, string>;
let apiUrl: string;
let headers: Record<string, string>;
let secret: string;
let keyId: number;
const procs: NodeProcess[] = [];
const posts: Record<'still' | 'corrupt', { id: number; md5: string }> = {
  still: { id: 0, md5: '' },
  corrupt: { id: 0, md5: '' },
};

const callbackWorker = (name: string): NodeProcess => {
  const proc = startWorker(name, { ...env, THUMBS_WORKER_ROLES: 'callbacks' });
  procs.push(proc);
  return proc;
};

const put = (path: string, callbackURL: string) =>
  request(`${apiUrl}${path}?callbackURL=${encodeURIComponent(callbackURL)}`, { method: 'PUT', headers });

/**
 * The Standard Webhooks check of a call with the libraries integrators use: `standardwebhooks`
 * and svix's verifier. Answers the body the first parsed; throws when either refuses.
 */
function verifiedBody(call: ReceivedCallback, standardSecret: string): unknown {
  new SvixWebhook(standardSecret).verify(call.body, call.headers);
  return new Webhook(standardSecret).verify(call.body, call.headers);
}

function logs(): string {
  return procs.map((p) => `--- ${p.name}\n${p.tail(3000)}`).join('\n');
}

beforeAll(async () => {
  ctx = await createTestContext('e2ecallbacks');
  receiver = await startCallbackReceiver();
  board = await startFakeBoard();
  const still = board.addPost({ id: 9201, ext: 'png' }, await makePng(400, 300));
  const corrupt = board.addPost({ id: 9202, ext: 'png' }, randomBytes(4096));
  posts.still = { id: 9201, md5: still.md5 };
  posts.corrupt = { id: 9202, md5: corrupt.md5 };
  env = {
    ...ctx.env,
    LOG_LEVEL: 'warn',
    MEDIA_URL: 'http://media.test/thumbs',
    BOARD_URL: board.url,
    BOARD_STATIC_URL: board.staticUrl,
    BOARD_REQUESTS_PER_SECOND: '10',
    THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(board.staticUrl).host,
    THUMBS_CALLBACK_PRIVATE_HOSTS: receiver.host,
    PAWLINK_SECRETS_KEY: randomBytes(32).toString('hex'),
    // A held request is given up on only long after the test has killed its worker.
    THUMBS_CALLBACK_TIMEOUT_MS: '30000',
    THUMBS_CALLBACK_RETRY_DELAYS_MS: '500,1000,1500,2000',
    // A killed worker's delivery goes back to the queue within about 3 s.
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
  };
  const base = loadBaseConfig(env);
  await migrateDatabase(base.database, authDatabase);
  const auth = createDataSource(base.database, { ...authDatabase, poolSize: 1 });
  await auth.initialize();
  const { key, record } = await new ApiKeyRepository(auth).create({
    name: 'bot',
    contact: 'bot@example.com',
    flags: ['thumbs'],
    rateLimitRoute: 0,
    rateLimitGlobal: 0,
  });
  await auth.destroy();
  headers = { authorization: key };
  keyId = record.id;
  const made = await admin(env, ['apikey', 'webhook-secret', String(record.id)]);
  expect(made.code, made.stderr).toBe(0);
  secret = made.stdout.trim().split('\n').at(-1)!;

  procs.push(startWorker('render', { ...env, THUMBS_WORKER_ROLES: 'render' }));
  const api = await startService('thumbs', env);
  procs.unshift(api);
  apiUrl = api.url;
});

afterAll(async () => {
  await Promise.all(procs.map((proc) => proc.stop()));
  await receiver?.close();
  await board?.close();
  await ctx?.cleanup();
});

describe('completion callbacks through the real services', () => {
  it("POSTs thumbnail.done and thumbnail.failed, signed with the key's webhook secret", async () => {
    const worker = callbackWorker('callbacks-1');
    try {
      const askedAt = Date.now();
      const done = await put(`/${posts.still.id}/png`, receiver.url('/done'));
      const failed = await put(`/${posts.corrupt.md5}/png`, receiver.url('/failed'));
      expect([done.status, failed.status], logs()).toEqual([202, 202]);
      const [[doneCall], [failedCall]] = await Promise.all([
        receiver.waitForCalls('/done', 1, 60_000),
        receiver.waitForCalls('/failed', 1, 60_000),
      ]).catch((error: Error) => {
        throw new Error(`${error.message}\n${logs()}`);
      });
      process.stderr.write(
        `callbacks: PUT to thumbnail.done at the receiver in ${Date.now() - askedAt} ms (render included; both calls awaited)\n`,
      );
      for (const call of [doneCall!, failedCall!]) {
        expect(call.contentType).toBe('application/json');
        expect(verifyCallbackSignature(call, secret), call.signature).not.toBeNull();
        // The secret bin/admin printed, as is, in the libraries integrators use.
        expect(verifiedBody(call, secret)).toEqual(JSON.parse(call.body));
      }
      expect(doneCall!.headers['webhook-id']).toMatch(new RegExp(`^evt_${posts.still.md5}_png_\\d+-\\d+$`));
      expect(JSON.parse(doneCall!.body)).toEqual({
        event: 'thumbnail.done',
        md5: posts.still.md5,
        type: 'png',
        url: `http://media.test/thumbs/${posts.still.md5}.png`,
        code: null,
        error: null,
        at: expect.any(Number),
      });
      expect(JSON.parse(failedCall!.body)).toMatchObject({
        event: 'thumbnail.failed',
        md5: posts.corrupt.md5,
        type: 'png',
        url: null,
        code: 1060,
        error: expect.any(String),
      });
      // The same thumbnail again is done: answered 200, and no callback is registered for it.
      expect((await put(`/${posts.still.md5}/png`, receiver.url('/again'))).status).toBe(200);
    } finally {
      await worker.stop();
    }
    expect(receiver.calls.filter((call) => call.path === '/again')).toEqual([]);
  });

  it('delivers a callback whose worker was killed (SIGKILL) while the receiver held the request', async () => {
    receiver.answerWith((path, n) => (path === '/held' && n === 1 ? 'hang' : 200));
    const first = callbackWorker('callbacks-2');
    const md5 = board.addPost({ id: 9203, ext: 'png' }, await makePng(320, 200)).md5;
    expect((await put(`/${md5}/gif`, receiver.url('/held'))).status).toBe(202);
    const [held] = await receiver.waitForCalls('/held', 1, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${logs()}`);
    });
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await first.exited).signal).toBe('SIGKILL');
    callbackWorker('callbacks-3');
    const calls = await receiver.waitForCalls('/held', 2, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${logs()}`);
    });
    process.stderr.write(
      `callbacks: a delivery held by a SIGKILLed worker reached the receiver again ${Date.now() - killedAt} ms later (lock 2 s, stalled checks every 1 s)\n`,
    );
    expect(calls[1]!.body).toBe(held!.body);
    expect(verifyCallbackSignature(calls[1]!, secret)).not.toBeNull();
    // Another worker's attempt of the same event: the same webhook-id, a valid signature.
    expect(calls[1]!.headers['webhook-id']).toBe(held!.headers['webhook-id']);
    verifiedBody(calls[1]!, secret);
    expect(JSON.parse(calls[1]!.body)).toMatchObject({ event: 'thumbnail.done', md5, type: 'gif' });
  });

  it('verifies with the old secret and the new one while bin/admin --keep-previous-hours keeps the old signing', async () => {
    const worker = callbackWorker('callbacks-4');
    try {
      const rotated = await admin(env, ['apikey', 'webhook-secret', String(keyId), '--keep-previous-hours', '1']);
      expect(rotated.code, rotated.stderr).toBe(0);
      const newSecret = rotated.stdout.trim().split('\n').at(-1)!;
      const md5 = board.addPost({ id: 9204, ext: 'png' }, await makePng(300, 200)).md5;
      expect((await put(`/${md5}/png`, receiver.url('/rotated'))).status).toBe(202);
      const [call] = await receiver.waitForCalls('/rotated', 1, 60_000).catch((error: Error) => {
        throw new Error(`${error.message}\n${logs()}`);
      });
      expect(call!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
      expect(verifiedBody(call!, newSecret)).toMatchObject({ event: 'thumbnail.done', md5 });
      expect(verifiedBody(call!, secret)).toMatchObject({ event: 'thumbnail.done', md5 });
      expect(verifyCallbackSignature(call!, newSecret)).not.toBeNull();
      secret = newSecret;
    } finally {
      await worker.stop();
    }
  });
});
