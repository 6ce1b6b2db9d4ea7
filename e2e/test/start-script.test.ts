import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { createTestContext, freePort, processEnv, REPO_ROOT, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The real `npm start` (scripts/start.sh, bootstrap included) on private ports, a private data
 * directory, media directory, database and Redis prefix: run twice, then a third time (through
 * `npm start --demo`), each stopped with SIGTERM, and the keys it keeps counted in between.
 */

let ctx: TestContext;
let dataDir: string;
let env: Record<string, string>;
let auth: ReturnType<typeof createDataSource> | undefined;
const groups = new Set<number>();

interface StartRun {
  child: ChildProcess;
  lines: string[];
  demoKey: string;
  exited: Promise<number | null>;
}

/** Processes whose process group is `pgid` (the start and everything it started), from /proc. */
async function groupMembers(pgid: number): Promise<number[]> {
  const members: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid) members.push(Number(entry));
  }
  return members;
}

async function commandOf(pid: number): Promise<string> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').trim();
}

async function environOf(pid: number): Promise<Map<string, string>> {
  const raw = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
  return new Map(
    raw
      .split('\0')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
  );
}

/** Starts `command` in a process group of its own and resolves once the banner printed the demo key. */
async function start(command: string, args: string[]): Promise<StartRun> {
  const child = spawn(command, args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.add(child.pid!);
  const lines: string[] = [];
  let pending = '';
  const collect = (chunk: Buffer): void => {
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  // 'exit', not 'close': the programs it started hold the pipes until they end too.
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 400_000;
  for (;;) {
    const banner = lines.findIndex((line) => line.includes('Pawlink is running'));
    const key =
      banner < 0
        ? undefined
        : lines
            .slice(banner)
            .map((line) => /^\s+demo API key\s+(\S+)$/.exec(line)?.[1])
            .find(Boolean);
    if (key) return { child, lines, demoKey: key, exited };
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      throw new Error(
        `${command} ${args.join(' ')} did not get to its banner (exit ${child.exitCode ?? child.signalCode}):\n${lines.slice(-60).join('\n')}`,
      );
    }
    await sleep(250);
  }
}

/**
 * SIGTERM to what was started (`bash scripts/start.sh`, or `npm start`, which passes it on), as a
 * service manager would; then every process of the start must end.
 */
async function stop(run: StartRun): Promise<{ code: number | null; leftovers: string[] }> {
  const pgid = run.child.pid!;
  run.child.kill('SIGTERM');
  const code = await Promise.race([run.exited, sleep(90_000).then(() => 'timeout' as const)]);
  if (code === 'timeout')
    throw new Error(`the start did not exit within 90 s of SIGTERM:\n${run.lines.slice(-40).join('\n')}`);
  const deadline = Date.now() + 30_000;
  let members = await groupMembers(pgid);
  while (members.length > 0 && Date.now() < deadline) {
    await sleep(250);
    members = await groupMembers(pgid);
  }
  const leftovers = await Promise.all(members.map(async (pid) => `${pid} ${await commandOf(pid)}`));
  if (members.length === 0) groups.delete(pgid);
  return { code, leftovers };
}

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
  });
});

afterAll(async () => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
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
      (await groupMembers(first.child.pid!)).map(async (pid) => ({
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
