import { readdir, readFile } from 'node:fs/promises';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time of a process, including its reaped children (ffmpeg run by the worker), in ms. */
export async function cpuMs(pid: number | 'self'): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // after the command name: state is field 3, so utime/stime/cutime/cstime (14–17) sit at 11–14
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return (utime! + stime! + cutime! + cstime!) * TICK_MS;
}

async function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  const pids: number[] = [];
  try {
    for (const task of await readdir(`/proc/${pid}/task`)) {
      const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
      pids.push(...text.split(' ').filter(Boolean).map(Number));
    }
  } catch {
    // the process is gone
  }
  return pids;
}

/**
 * Samples a process and its children every `intervalMs`: the process's own high-water mark
 * (VmHWM) and the largest resident size of any child seen (ffmpeg), in MB.
 */
export function sampleMemory(
  pid: number,
  intervalMs = 25,
): { stop(): Promise<{ selfPeakMb: number; childPeakMb: number; combinedPeakMb: number }> } {
  let selfPeak = 0;
  let childPeak = 0;
  let combinedPeak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const self = await statusKb(pid, 'VmHWM');
      const selfNow = await statusKb(pid, 'VmRSS');
      let children = 0;
      for (const child of await childrenOf(pid)) {
        const hwm = await statusKb(child, 'VmHWM');
        childPeak = Math.max(childPeak, hwm);
        children += await statusKb(child, 'VmRSS');
      }
      selfPeak = Math.max(selfPeak, self);
      combinedPeak = Math.max(combinedPeak, selfNow + children);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { selfPeakMb: selfPeak / 1024, childPeakMb: childPeak / 1024, combinedPeakMb: combinedPeak / 1024 };
    },
  };
}
