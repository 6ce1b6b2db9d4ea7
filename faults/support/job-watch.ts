import { setTimeout as sleep } from 'node:timers/promises';
import type { Endpoints } from './endpoints.js';
import { eachLimited } from './final-checks.js';
import type { TrackedJob } from './job-tracker.js';

/** A job nobody has had an answer about for this long is checked by the watch. */
const UNOBSERVED_MS = 1000;

/**
 * One check of `job`. When check no longer knows it (404 1066), the job counts as completed if its
 * file exists (the answers only lost the record), else it stays "vanished".
 */
async function checkOnce(endpoints: Endpoints, job: TrackedJob, origin: 'probe' | 'final'): Promise<void> {
  const { record } = await endpoints.thumbCheck(endpoints.probe, origin, job.key);
  if (record.status === 404 && record.code === 1066 && (await endpoints.thumbnailExists(job.key)) === true) {
    endpoints.jobs.ended(job.key, Date.now(), 'completed');
  }
}

/**
 * Checks every open job nobody polls (its client gave up, or it was left by a fault) about once a
 * second, so each job's end is seen within about a second of when it happens, until `signal`.
 */
export async function watchOpenJobs(endpoints: Endpoints, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    const now = Date.now();
    const unobserved = endpoints.jobs.open().filter((job) => now - job.lastObservedAt >= UNOBSERVED_MS);
    await eachLimited(unobserved, 4, (job) => checkOnce(endpoints, job, 'probe'));
    await sleep(250);
  }
}

/** Checks every job still open every half second until it ends or `until` passes (the final "no job stuck" bound). */
export async function sweepOpenJobs(endpoints: Endpoints, until: number): Promise<void> {
  await eachLimited(endpoints.jobs.open(), 8, async (job) => {
    while (job.endedAt === undefined && Date.now() < until) {
      await checkOnce(endpoints, job, 'final');
      // Unknown to check and no file: nothing will bring it back (only a new PUT would).
      if (job.endedAt === undefined && job.vanishedAt !== undefined) return;
      if (job.endedAt === undefined) await sleep(500);
    }
  });
}
