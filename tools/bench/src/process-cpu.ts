import { readFile } from 'node:fs/promises';

/** USER_HZ: /proc reports CPU time in ticks of 10 ms on Linux. */
const TICK_MS = 10;

/**
 * CPU time (user + system, every thread) a process has used so far, in ms; undefined when it is
 * gone or /proc is not there. Sampled around a run, it says what the server spent per request,
 * which the throughput alone cannot (a server can be slow because it waits, or because it works).
 */
export async function processCpuMs(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // after "(command)": the state is field 3, so utime and stime (fields 14 and 15) sit at 11 and 12
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}
