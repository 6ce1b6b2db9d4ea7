import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT } from '@pawlink/test-kit';

/**
 * The real `npm start` (scripts/start.sh) as the e2e tests run it: in a process group of its own,
 * waited for until its banner printed the demo key, and stopped as a service manager or a shell
 * script would, by signals to the start alone or to its whole process group.
 */

export interface StartRun {
  child: ChildProcess;
  lines: string[];
  demoKey: string;
  exited: Promise<number | null>;
  /**
   * The process groups of the start and of every program it runs (the services run in a session
   * of their own, so a signal to the start's group reaches the start alone).
   */
  groups: Set<number>;
}

interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
}

/** pid, parent and process group of every process, from /proc. */
async function processTable(): Promise<ProcStat[]> {
  const table: ProcStat[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (stat === '') continue;
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    table.push({ pid: Number(entry), ppid: Number(fields[1]), pgrp: Number(fields[2]) });
  }
  return table;
}

/** Processes whose process group is one of `groups`. */
export async function groupMembers(groups: Iterable<number>): Promise<number[]> {
  const wanted = new Set(groups);
  return (await processTable()).filter((proc) => wanted.has(proc.pgrp)).map((proc) => proc.pid);
}

/** `pid` and every process below it. */
export async function descendants(pid: number): Promise<ProcStat[]> {
  const table = await processTable();
  const found = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const proc of table) {
      if (!found.has(proc.pid) && found.has(proc.ppid)) {
        found.add(proc.pid);
        grew = true;
      }
    }
  }
  return table.filter((proc) => found.has(proc.pid));
}

export async function commandOf(pid: number): Promise<string> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').trim();
}

/** Starts `command` in a process group of its own and resolves once the banner printed the demo key. */
export async function startPawlink(command: string, args: string[], env: Record<string, string>): Promise<StartRun> {
  const child = spawn(command, args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const groups = new Set([child.pid!]);
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
    if (key) {
      for (const proc of await descendants(child.pid!)) groups.add(proc.pgrp);
      return { child, lines, demoKey: key, exited, groups };
    }
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      throw new Error(
        `${command} ${args.join(' ')} did not get to its banner (exit ${child.exitCode ?? child.signalCode}):\n${lines.slice(-60).join('\n')}`,
      );
    }
    await sleep(250);
  }
}

export interface StopOptions {
  /** Signal the start's whole process group (`kill -TERM -- -<pgid>`), not the start alone. */
  group?: boolean;
  /** How many SIGTERMs, `gapMs` apart (default 1). */
  signals?: number;
  gapMs?: number;
}

export interface StopResult {
  code: number | null;
  /** Processes of the start's groups still running 30 s after it exited, with their command lines. */
  leftovers: string[];
}

/**
 * SIGTERM to what was started (`npm start` passes it on) or to its process group, once or more;
 * then the start must exit and every process of its groups end.
 */
export async function stopPawlink(run: StartRun, options: StopOptions = {}): Promise<StopResult> {
  const pgid = run.child.pid!;
  for (let i = 0; i < (options.signals ?? 1); i++) {
    if (i > 0) await sleep(options.gapMs ?? 50);
    if (options.group) process.kill(-pgid, 'SIGTERM');
    else run.child.kill('SIGTERM');
  }
  const code = await Promise.race([run.exited, sleep(90_000).then(() => 'timeout' as const)]);
  if (code === 'timeout')
    throw new Error(`the start did not exit within 90 s of SIGTERM:\n${run.lines.slice(-40).join('\n')}`);
  const deadline = Date.now() + 30_000;
  let members = await groupMembers(run.groups);
  while (members.length > 0 && Date.now() < deadline) {
    await sleep(250);
    members = await groupMembers(run.groups);
  }
  const leftovers = await Promise.all(members.map(async (pid) => `${pid} ${await commandOf(pid)}`));
  return { code, leftovers };
}

/** SIGKILL to every group of `runs` that still has a process (a test's cleanup). */
export function killPawlink(runs: Iterable<StartRun>): void {
  for (const run of runs) {
    for (const pgid of run.groups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
