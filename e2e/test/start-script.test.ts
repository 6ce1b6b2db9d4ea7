import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiKeyRepository, authDatabase, parseSecretsKey, WebhookSecretService } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { admin, createTestContext, freePort, processEnv, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandOf,
  descendants,
  killPawlink,
  startPawlink,
  stopPawlink,
  type StartRun,
  type StopResult,
} from '../support/npm-start.js';

/**
 * The real `npm start` (scripts/start.sh, bootstrap included) on private ports, a private data
 * directory, media directory, database and Redis prefix: run twice, then a third time (through
 * `npm start --demo`), each stopped with SIGTERM, and the keys it keeps counted in between.
 */

let ctx: TestContext;
let dataDir: string;
let env: Record<string, string>;
let auth: ReturnType<typeof createDataSource> | undefined;
const runs: StartRun[] = [];

async function environOf(pid: number): Promise<Map<string, string>> {
  const raw = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  return new Map(
    raw
      .split('\0')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
  );
}

async function start(command: string, args: string[]): Promise<StartRun> {
  const run = await startPawlink(command, args, env);
  runs.push(run);
  return run;
}

/**
 * SIGTERM to what was started (`bash scripts/start.sh`, or `npm start`, which passes it on), as a
 * service manager would; then every process of the start must end.
 */
const stop = (run: StartRun): Promise<StopResult> => stopPawlink(run);

/** Keys usable now, by the name they start with. */
async function usableKeys(): Promise<{ demo: number[]; imagesService: number[] }> {
  if (!auth) {
    auth = createDataSource(loadBaseConfig(ctx.env).database, { ...authDatabase, poolSize: 1 });
    await auth.initialize();
  }
  const keys = (await new ApiKeyRepository(auth).list()).filter((key) => key.active && !key.disabled);
  return {
    demo: keys.filter((key) => key.name.startsWith('demo')).map((key) => key.id),
    imagesService: keys.filter((key) => key.name.startsWith('images-service')).map((key) => key.id),
  };
}

beforeAll(async () => {
  ctx = await createTestContext('e2estart');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-start-data-'));
  const port = async (): Promise<string> => String(await freePort());
  const [shortener, images, thumbs, media, board, ...metrics] = await Promise.all(Array.from({ length: 8 }, port));
  env = processEnv({
    ...ctx.env,
    LOG_LEVEL: 'warn',
    PAWLINK_DATA_DIR: dataDir,
    SHORTENER_PORT: shortener!,
    IMAGES_PORT: images!,
    THUMBS_PORT: thumbs!,
    MEDIA_PORT: media!,
    DEMO_BOARD_PORT: board!,
    SHORTENER_METRICS_PORT: metrics[0]!,
    IMAGES_METRICS_PORT: metrics[1]!,
    THUMBS_METRICS_PORT: metrics[2]!,
    METRICS_HOST: '127.0.0.1',
    // Named outright, so a developer's .env cannot point the start at other addresses.
    SHORTENER_URL: `http://127.0.0.1:${shortener}`,
    IMAGES_URL: `http://127.0.0.1:${images}`,
    THUMBS_URL: `http://127.0.0.1:${thumbs}`,
    MEDIA_URL: `http://127.0.0.1:${media}/thumbs`,
    IMAGES_MEDIA_URL: `http://127.0.0.1:${media}/images`,
    // Nothing here may reach the real image board; the third start runs the demo board.
    BOARD_URL: 'http://127.0.0.1:9',
    BOARD_STATIC_URL: 'http://127.0.0.1:9',
    WORKERS: '1',
    // A boot on a busy machine (the demo board renders its files meanwhile) may take longer than
    // the 1 s these default to; failing fast is not what this test is about.
    DB_CONNECT_TIMEOUT_MS: '15000',
    DB_QUERY_TIMEOUT_MS: '15000',
    REDIS_CONNECT_TIMEOUT_MS: '15000',
    // The worker's first commands too (a loaded CI machine timed one out at the 1 s default).
    REDIS_COMMAND_TIMEOUT_MS: '15000',
  });
});

afterAll(async () => {
  killPawlink(runs);
  await auth?.destroy();
  await rm(dataDir, { recursive: true, force: true });
  await ctx?.cleanup();
});

describe('npm start', () => {
  it('keeps one demo key and one images-service key across starts: twice, then a third time with `npm start --demo`', async () => {
    const first = await start('bash', ['scripts/start.sh']);
    // §6.4: one line a step with the time it took, and the banner says how long the start took.
    for (const step of ['seed the demo images', 'API keys', 'nginx config']) {
      expect(
        first.lines.some((line) => line.startsWith(`[start] ${step}`) && / done in \d+\.\d s$/.test(line)),
        step,
      ).toBe(true);
    }
    expect(first.lines).toContainEqual(
      expect.stringMatching(/^\[start\] start the services: all answering in \d+\.\d s$/),
    );
    expect(first.lines).toContainEqual(
      expect.stringMatching(/^ {3}started in \d+\.\d s \(the services took \d+\.\d s of it\)$/),
    );
    expect(first.lines).toContainEqual(expect.stringMatching(/^ {5}image board {6}http:\/\/127\.0\.0\.1:9$/));

    // The shortener key reaches the images service and no other program the start runs.
    const programs = await Promise.all(
      (await descendants(first.child.pid!)).map(async ({ pid }) => ({
        command: await commandOf(pid),
        environ: await environOf(pid),
      })),
    );
    const services = programs.filter(({ command }) =>
      /(apps\/[a-z-]+\/dist\/main\.js|nginx|start-banner)/.test(command),
    );
    expect(services.map(({ command }) => command).join('\n')).toMatch(/apps\/images\/dist\/main\.js/);
    for (const { command, environ } of services) {
      if (command.includes('apps/images/dist/main.js')) expect(environ.get('SHORTENER_KEY'), command).toMatch(/^pl_/);
      else expect(environ.has('SHORTENER_KEY'), command).toBe(false);
    }
    // The workers sign callbacks with webhook secrets sealed under the key the start keeps for this data dir.
    const secretsKeyFile = path.join(dataDir, 'keys', 'secrets.key');
    const secretsKey = await readFile(secretsKeyFile, 'utf8');
    expect(secretsKey).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(secretsKeyFile)).mode & 0o777).toBe(0o600);
    const worker = services.find(({ command }) => command.includes('apps/thumbs-worker/dist/main.js'));
    expect(worker?.environ.get('PAWLINK_SECRETS_KEY')).toBe(secretsKey);

    const stopped = await stop(first);
    expect(stopped.leftovers).toEqual([]);
    const afterOne = await usableKeys();
    expect(afterOne.demo).toHaveLength(1);
    expect(afterOne.imagesService).toHaveLength(1);
    // bin/admin beside it finds the secrets key the start keeps (no PAWLINK_SECRETS_KEY given), and
    // the workers open the secret it makes with that key.
    const hook = await admin(env, ['apikey', 'webhook-secret', String(afterOne.demo[0])]);
    expect(hook.stderr).toBe('');
    expect(hook.code).toBe(0);
    const secret = hook.stdout.trim().split('\n').at(-1);
    const sealed = new WebhookSecretService({
      keys: new ApiKeyRepository(auth!),
      secretsKey: parseSecretsKey(secretsKey),
    });
    expect(await sealed.current(afterOne.demo[0]!)).toBe(secret);
    const keyFile = path.join(dataDir, 'keys', `${ctx.dbPrefix}demo.key`);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(keyFile, 'utf8')).toContain(first.demoKey);

    const second = await start('bash', ['scripts/start.sh']);
    expect(second.demoKey).toBe(first.demoKey);
    expect(await readFile(secretsKeyFile, 'utf8')).toBe(secretsKey);
    expect((await stop(second)).leftovers).toEqual([]);
    expect(await usableKeys()).toEqual(afterOne);

    // npm turns `--demo` (without `--`) into npm_config_demo=true; the start must still run the demo board.
    const third = await start('npm', ['start', '--demo']);
    expect(third.demoKey).toBe(first.demoKey);
    expect(third.lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^ {5}image board {6}http://127\\.0\\.0\\.1:${env.DEMO_BOARD_PORT} \\(demo board\\)$`),
      ),
    );
    const demoPost = await fetch(`http://127.0.0.1:${env.DEMO_BOARD_PORT}/posts/900000001.json`);
    expect(demoPost.status).toBe(200);
    await demoPost.arrayBuffer();
    expect((await stop(third)).leftovers).toEqual([]);
    expect(await usableKeys()).toEqual(afterOne);
  }, 1_500_000);
});
