import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * What the suite starts (mariadbd, HAProxy, the agents) ends with the process that started it,
 * also when a signal ends that process: vitest ends its workers with SIGTERM, Ctrl-C is SIGINT.
 */

const FIXTURE = path.join(import.meta.dirname, 'fixtures/owns-a-sleeper.mjs');
const started: number[] = [];
let dir: string | undefined;

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Runs the fixture with an IPC channel (as vitest forks its workers), waits for its sleeper's pid,
 * then signals the fixture, or closes the channel (`disconnect`: vitest gone); the sleeper's pid.
 */
async function sleeperAfter(signal: NodeJS.Signals | 'disconnect'): Promise<{ pid: number; ended: string | null }> {
  dir ??= await mkdtemp(path.join(os.tmpdir(), 'pawlink-owned-'));
  const owner = spawn(process.execPath, [FIXTURE, path.join(dir, `${signal}.log`)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const [line] = (await once(owner.stdout!, 'data')) as [Buffer];
  const pid = Number(line.toString().trim());
  started.push(pid);
  expect(isAlive(pid)).toBe(true);
  const exited = once(owner, 'exit') as Promise<[number | null, string | null]>;
  if (signal === 'disconnect') owner.disconnect();
  else owner.kill(signal);
  const [code, ended] = await exited;
  return { pid, ended: ended ?? `exit ${code}` };
}

async function goneWithin(pid: number, boundMs: number): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  return !isAlive(pid);
}

afterAll(async () => {
  for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('spawnOwned', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`kills what it started when the process that started it is ended by ${signal}, which still ends it`, async () => {
      const { pid, ended } = await sleeperAfter(signal);
      expect(ended).toBe(signal);
      expect(await goneWithin(pid, 5000)).toBe(true);
    });
  }

  it('kills what it started when the vitest that forked its process is gone (the IPC channel closed), and exits', async () => {
    const { pid, ended } = await sleeperAfter('disconnect');
    expect(ended).toBe('exit 1');
    expect(await goneWithin(pid, 5000)).toBe(true);
  });
});
