import { setTimeout as sleep } from 'node:timers/promises';
import {
  adminOrThrow,
  createKey,
  createTestContext,
  jsonInit,
  request,
  startService,
  startTcpProxy,
  type ServiceProcess,
  type TcpProxy,
  type TestContext,
} from '@pawlink/test-kit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 42: the built shortener process while its Redis stalls under load. Its Redis traffic goes
 * through a proxy (to the shared Redis, under the test's own prefix) that holds every byte as a
 * SIGSTOPped Redis would, so commands time out (REDIS_COMMAND_TIMEOUT_MS); or that, after a
 * reconnect, holds only the answer to the renewed SUBSCRIBE of the cache's invalidation connection,
 * whose "Command timed out" rejection once went unhandled and ended the process.
 */
/** The default: a shorter one makes the process's start fail on a busy machine. */
const COMMAND_TIMEOUT_MS = 1000;
/** A bound for a hung request (a process that stopped answering), not a measurement. */
const REQUEST_LIMIT_MS = 10_000;

let ctx: TestContext;
let proxy: TcpProxy;
let shortener: ServiceProcess;
let key: string;
let code: string;
let channel: string;

interface Answer {
  kind: string;
  status?: number;
  code?: number;
  failure?: string;
}

beforeAll(async () => {
  ctx = await createTestContext('sh-stall');
  await adminOrThrow(ctx.env, ['migrate']);
  // Limits the load never reaches, but limits: keyed requests lease their quotas from Redis (docs/adr/0021).
  key = await createKey(
    ctx.env,
    'shortener',
    ['--rate-limit-route', '1000000', '--rate-limit-global', '1000000'],
    'stall',
  );
  const redisTarget = new URL(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  proxy = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
  shortener = await startService('shortener', {
    ...ctx.env,
    REDIS_URL: `redis://${proxy.host}:${proxy.port}`,
    REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    LOG_LEVEL: 'warn',
  });
  const created = await request(
    `${shortener.url}/create`,
    jsonInit('POST', { url: 'https://example.com/stalled-redis' }, { authorization: key }),
  );
  expect(created.status).toBe(201);
  code = created.body.data.code;
  channel = `${ctx.redisPrefix}shortener:invalidate`;
});

afterAll(async () => {
  proxy?.restore();
  await shortener?.stop();
  await proxy?.close();
  await ctx?.cleanup();
});

/** One request of `kind`, as the load sends it: a redirect (visit counted), a keyed create, a keyed read. */
async function send(kind: string, n: number): Promise<Answer> {
  const signal = AbortSignal.timeout(REQUEST_LIMIT_MS);
  const auth = { authorization: key };
  try {
    const res =
      kind === 'redirect'
        ? await request(`${shortener.url}/${code}`, { signal })
        : kind === 'create'
          ? await request(`${shortener.url}/create`, {
              ...jsonInit('POST', { url: `https://example.com/stalled/${n}` }, auth),
              signal,
            })
          : await request(`${shortener.url}/${code}.json`, { headers: auth, signal });
    return { kind, status: res.status, code: (res.body as { code?: number } | undefined)?.code };
  } catch (error) {
    return { kind, failure: (error as Error).message };
  }
}

/** Redirects, creates and keyed reads from a few clients until `stop` is aborted. */
async function runLoad(stop: AbortSignal): Promise<Answer[]> {
  const answers: Answer[] = [];
  let n = 0;
  await Promise.all(
    ['redirect', 'redirect', 'create', 'read'].map(async (kind) => {
      while (!stop.aborted) answers.push(await send(kind, n++));
    }),
  );
  return answers;
}

/** Anything but a success, a rate limit or 503 code 1004 (the documented answers while Redis is down). */
const undocumented = (answers: Answer[]): Answer[] =>
  answers.filter(
    (a) =>
      a.status === undefined ||
      !((a.status >= 200 && a.status < 400) || a.status === 429 || (a.status === 503 && a.code === 1004)),
  );

const unhandledLines = (): string[] => shortener.lines.filter((line) => line.includes('unhandled rejection'));

/** Waits until every kind of request succeeds again (a bound for a process that does not recover). */
async function recovered(): Promise<Answer[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const round = await Promise.all(['redirect', 'create', 'read'].map((kind, i) => send(kind, -1 - i)));
    if (round.every((a) => a.status !== undefined && a.status < 400)) return round;
    if (Date.now() > deadline) return round;
    await sleep(200);
  }
}

async function subscribers(): Promise<number> {
  const redis = new Redis(ctx.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const [, count] = (await redis.pubsub('NUMSUB', channel)) as [string, number];
    return Number(count);
  } finally {
    redis.disconnect();
  }
}

describe('the built shortener with its Redis stalled under load', () => {
  it('answers 2xx, 302, 429 or 503 1004 while every Redis byte is held, and recovers when they flow again', async () => {
    const stop = new AbortController();
    const load = runLoad(stop.signal);
    await sleep(500);
    proxy.stall();
    await sleep(COMMAND_TIMEOUT_MS * 3);
    proxy.restore();
    await sleep(1000);
    stop.abort();
    const answers = await load;
    expect(answers.length).toBeGreaterThan(0);
    expect(undocumented(answers)).toEqual([]);
    expect(shortener.child.exitCode).toBeNull();
    expect((await recovered()).map((a) => a.status)).toEqual([302, 201, 200]);
    expect(unhandledLines()).toEqual([]);
  });

  it('survives a renewed SUBSCRIBE that times out after a reconnect, and subscribes again', async () => {
    const stop = new AbortController();
    const load = runLoad(stop.signal);
    await sleep(300);
    const held = proxy.stallOn('subscribe');
    proxy.cut();
    await sleep(200);
    proxy.restore();
    await held;
    // Well past the command timeout of the held SUBSCRIBE.
    await sleep(COMMAND_TIMEOUT_MS * 3);
    stop.abort();
    const answers = await load;
    expect(undocumented(answers)).toEqual([]);
    expect(shortener.child.exitCode).toBeNull();
    expect((await recovered()).map((a) => a.status)).toEqual([302, 201, 200]);
    const deadline = Date.now() + 10_000;
    while ((await subscribers()) !== 1 && Date.now() < deadline) await sleep(100);
    expect(await subscribers()).toBe(1);
    expect(unhandledLines()).toEqual([]);
  });
});
