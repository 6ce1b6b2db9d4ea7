import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../packages/test-kit/src/free-port.js';

// The Redis that scripts/bootstrap.sh starts when none answers, started by the script's own
// function on a private port with its data dir under a temp dir, and stopped by pid.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let dir: string;
let dataDir: string;
let cwd: string;
let port: number;
const started = new Set<number>();

function cli(...args: string[]): string {
  const res = spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });
  return res.stdout.trim();
}

/** Runs bs_start_redis from scripts/bootstrap.sh, with the helpers it calls stubbed for a non-interactive run. */
async function startWithBootstrap(): Promise<number> {
  const functions = spawnSync(
    'sed',
    ['-n', '/^bs_redis_data_dir() {/,/^}/p;/^bs_start_redis() {/,/^}/p', 'scripts/bootstrap.sh'],
    { cwd: repoRoot, encoding: 'utf8' },
  ).stdout;
  expect(functions).toContain('bs_start_redis()');
  const script = [
    'set -euo pipefail',
    'bs_log() { :; }',
    'bs_as_root() { "$@"; }',
    'bs_apt_install() { echo "redis-server is not installed" >&2; exit 1; }',
    `bs_redis_hostport() { echo "127.0.0.1 ${port}"; }`,
    functions,
    'bs_start_redis',
  ].join('\n');
  const res = spawnSync('bash', ['-c', script], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, REDIS_DATA_DIR: dataDir },
  });
  expect(res.stderr).toBe('');
  expect(res.status).toBe(0);
  for (let i = 0; i < 100 && cli('ping') !== 'PONG'; i++) await sleep(50);
  const pid = Number(/process_id:(\d+)/.exec(cli('info', 'server'))?.[1]);
  expect(pid).toBeGreaterThan(0);
  started.add(pid);
  return pid;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stop(pid: number): Promise<void> {
  if (alive(pid)) process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 200 && alive(pid); i++) await sleep(25);
  started.delete(pid);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pawlink-bootstrap-redis-'));
  dataDir = join(dir, 'data');
  cwd = join(dir, 'cwd');
  await mkdir(cwd);
  port = await freePort();
});
afterAll(async () => {
  for (const pid of started) await stop(pid);
  await rm(dir, { recursive: true, force: true });
});

describe('the local Redis scripts/bootstrap.sh starts', () => {
  it('runs with AOF fsynced every second and noeviction, in its data dir', async () => {
    await startWithBootstrap();
    expect(cli('config', 'get', 'appendonly')).toBe('appendonly\nyes');
    expect(cli('config', 'get', 'appendfsync')).toBe('appendfsync\neverysec');
    expect(cli('config', 'get', 'maxmemory-policy')).toBe('maxmemory-policy\nnoeviction');
    expect(cli('config', 'get', 'dir')).toBe(`dir\n${dataDir}`);
  });

  it('keeps its keys across a restart, and writes nothing into the current directory', async () => {
    expect(cli('set', 'pawlink:bootstrap:kept', 'yes')).toBe('OK');
    const pid = Number(/process_id:(\d+)/.exec(cli('info', 'server'))?.[1]);
    await stop(pid);
    await startWithBootstrap();
    expect(cli('get', 'pawlink:bootstrap:kept')).toBe('yes');
    expect(await readdir(cwd)).toEqual([]);
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['appendonlydir', 'redis-server.log']));
  });
});
