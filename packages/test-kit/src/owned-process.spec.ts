import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./owned-process.fixture.mjs', import.meta.url));

/** Whether `pid` is a live process (a zombie left for a parent that never reaps counts as ended). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until `pid` has ended; false when it is still alive after `limitMs` (a bound for a hung test, not a measurement). */
async function endsWithin(pid: number, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pawlink-owned-process-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a process started with spawnOwned', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    'is killed when the test process gets %s, and the test process still ends by that signal',
    async (signal) => {
      const owner = spawn(process.execPath, [fixture, join(dir, `${signal}.log`)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const [chunk] = (await once(owner.stdout, 'data')) as [Buffer];
      const ownedPid = Number(chunk.toString().trim());
      expect(alive(ownedPid)).toBe(true);
      try {
        const ended = once(owner, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
        owner.kill(signal);
        const [code, endedBy] = await ended;
        expect({ code, endedBy }).toEqual({ code: null, endedBy: signal });
        expect(await endsWithin(ownedPid, 10_000)).toBe(true);
      } finally {
        if (alive(ownedPid)) process.kill(ownedPid, 'SIGKILL');
        owner.kill('SIGKILL');
      }
    },
  );

  it('is killed when the vitest that forked the test process is gone (its IPC channel closed), and the test process exits 1', async () => {
    const owner = spawn(process.execPath, [fixture, join(dir, 'disconnect.log')], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    const [chunk] = (await once(owner.stdout!, 'data')) as [Buffer];
    const ownedPid = Number(chunk.toString().trim());
    expect(alive(ownedPid)).toBe(true);
    try {
      const ended = once(owner, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
      owner.disconnect();
      const [code, endedBy] = await ended;
      expect({ code, endedBy }).toEqual({ code: 1, endedBy: null });
      expect(await endsWithin(ownedPid, 10_000)).toBe(true);
    } finally {
      if (alive(ownedPid)) process.kill(ownedPid, 'SIGKILL');
      owner.kill('SIGKILL');
    }
  });
});
