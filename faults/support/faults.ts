import { setTimeout as sleep } from 'node:timers/promises';
import { jobId, type ThumbnailJobKey } from './board-posts.js';
import type { Endpoints } from './endpoints.js';
import type { FaultSystem } from './fault-system.js';
import type { Load } from './load.js';
import { probeAll, waitForReady, type Dependency, type ReadyProbe, type ReadyTarget } from './readiness.js';
import { RECOVERY_LIMIT_MS, RECOVERY_WATCH_MS, waitForFullRecovery, type RecoveryResult } from './recovery.js';

/** The faults, in the order the suite injects them. */
export const FAULTS = {
  redisKill: 'Redis kill -9, restarted after 7 s',
  databasePause: 'MariaDB SIGSTOP for 8 s, then SIGCONT',
  databaseKill: 'MariaDB kill -9, restarted after 7 s',
  workerKill: 'worker SIGKILL mid-job, replacement started',
  serviceTerm: 'shortener SIGTERM under load, started again',
} as const;
export type FaultName = (typeof FAULTS)[keyof typeof FAULTS];

/** How long Redis stays dead and MariaDB stays dead or paused. */
const REDIS_DOWN_MS = 7000;
const DATABASE_PAUSE_MS = 8000;
const DATABASE_DOWN_MS = 7000;
/** /ready is asked this long into an outage, once every client has met it. */
const READY_PROBE_DELAY_MS = 2000;
/** A killed worker's job is taken up again within ~15 s (issue 12); this adds its render. */
export const STALLED_RETRY_LIMIT_MS = 20_000;
/** How long the board holds the download of the job the worker is killed in. */
const SLOW_DOWNLOAD_MS = 8000;
/** Creates the suite keeps in flight when it sends SIGTERM. */
export const IN_FLIGHT_CREATES = 4;
/** SHUTDOWN_TIMEOUT_MS is 10 s; past this the drain has failed. */
export const DRAIN_LIMIT_MS = 15_000;

export interface FaultObservation {
  name: FaultName;
  /** The dependency taken away, for Redis and MariaDB faults. */
  dependency?: Dependency;
  injectedAt: number;
  /** The dependency answering again, or the replacement process up. */
  backAt?: number;
  recovery?: RecoveryResult;
  /** /ready of every process, READY_PROBE_DELAY_MS into the outage. */
  readyDuring: ReadyProbe[];
  /** /ready after the return: when every process was ready, and the last answers. */
  readyAfter?: { readyAt?: number; probes: ReadyProbe[] };
  /** Jobs acknowledged but not ended when the fault was injected. */
  openJobsAtInjection: string[];
  endedAt: number;
  /** What else this fault measured (drain time, exit code, the killed job, ...). */
  facts: Record<string, string | number | null>;
}

/** What the fault scripts drive. */
export interface Harness {
  system: FaultSystem;
  endpoints: Endpoints;
  load: Load;
  /** A job nobody has asked for yet. */
  freshJob: () => ThumbnailJobKey;
}

export function readyTargets(system: FaultSystem): ReadyTarget[] {
  return [
    ...(['shortener', 'images', 'thumbs'] as const).map((name) => ({
      name,
      kind: 'service' as const,
      url: system.url(name),
    })),
    ...system.workers.map((worker) => ({
      name: worker.proc.name,
      kind: 'worker' as const,
      url: `http://127.0.0.1:${worker.healthPort}`,
    })),
  ];
}

const sleepUntil = (at: number): Promise<void> => sleep(Math.max(0, at - Date.now()));

function begin(h: Harness, name: FaultName, dependency?: Dependency): FaultObservation {
  const injectedAt = Date.now();
  return {
    name,
    dependency,
    injectedAt,
    readyDuring: [],
    openJobsAtInjection: h.endpoints.jobs.openAt(injectedAt).map((job) => job.id),
    endedAt: injectedAt,
    facts: {},
  };
}

/** After the return at `backAt`: full-success rounds, then /ready of every process. */
async function watchRecovery(h: Harness, observation: FaultObservation, backAt: number): Promise<void> {
  observation.backAt = backAt;
  observation.recovery = await waitForFullRecovery(h.endpoints, h.freshJob, backAt);
  observation.facts.recoveryRounds = observation.recovery.rounds;
  observation.readyAfter = await waitForReady(readyTargets(h.system), backAt + RECOVERY_WATCH_MS);
  observation.endedAt = Date.now();
}

async function dependencyFault(
  h: Harness,
  name: FaultName,
  dependency: Dependency,
  downMs: number,
  inject: () => Promise<void>,
  restore: () => Promise<void>,
): Promise<FaultObservation> {
  const observation = begin(h, name, dependency);
  await inject();
  await sleep(READY_PROBE_DELAY_MS);
  observation.readyDuring = await probeAll(readyTargets(h.system));
  await sleepUntil(observation.injectedAt + downMs);
  await restore();
  await watchRecovery(h, observation, Date.now());
  return observation;
}

export async function redisKill(h: Harness): Promise<FaultObservation> {
  const { redis } = h.system;
  const observation = await dependencyFault(
    h,
    FAULTS.redisKill,
    'redis',
    REDIS_DOWN_MS,
    () => redis.daemon.kill9(),
    () => redis.restart(),
  );
  // The shortener empties its redirect cache when its invalidation subscriber is back (within the
  // recovery allowance): codes it redirected before are cold again.
  await sleepUntil((observation.backAt ?? Date.now()) + RECOVERY_LIMIT_MS);
  h.endpoints.codes.cacheDropped(Date.now());
  return observation;
}

export function databasePause(h: Harness): Promise<FaultObservation> {
  const { mariadb } = h.system;
  return dependencyFault(
    h,
    FAULTS.databasePause,
    'database',
    DATABASE_PAUSE_MS,
    () => Promise.resolve(mariadb.daemon.signal('SIGSTOP')),
    async () => {
      mariadb.daemon.signal('SIGCONT');
      while (!(await mariadb.answers())) await sleep(50);
    },
  );
}

export function databaseKill(h: Harness): Promise<FaultObservation> {
  const { mariadb } = h.system;
  return dependencyFault(
    h,
    FAULTS.databaseKill,
    'database',
    DATABASE_DOWN_MS,
    () => mariadb.daemon.kill9(),
    () => mariadb.restart(),
  );
}

/** The live worker whose log says it started job `id` (LOG_LEVEL=info logs each job start). */
function workerRunning(h: Harness, id: string): FaultSystem['workers'][number] | undefined {
  return h.system.workers.find(
    (worker) =>
      worker.proc.child.exitCode === null &&
      worker.proc.lines.some((line) => line.includes('thumbnail job started') && line.includes(id)),
  );
}

/**
 * With the queue idle and the board holding downloads, one fresh job goes to one worker, which is
 * SIGKILLed mid-download; a replacement starts at once. The job must be taken up again (stalled
 * lock) and end; the suite waits STALLED_RETRY_LIMIT_MS for that, and the job watch goes on
 * seeing it after, so its real end time is known.
 */
export async function workerKill(h: Harness): Promise<FaultObservation> {
  await h.load.holdThumbs(30_000);
  const job = h.system.killJob;
  const id = jobId(job);
  h.system.board.setMediaDelay(SLOW_DOWNLOAD_MS);
  let observation: FaultObservation;
  try {
    const put = await h.endpoints.thumbPut(h.endpoints.probe, 'probe', job);
    if (put.record.status !== 202)
      throw new Error(
        `the slow job was not queued: ${put.record.status ?? put.record.failure} ${JSON.stringify(put.body)}`,
      );
    const deadline = Date.now() + 10_000;
    let victim = workerRunning(h, id);
    while (!victim) {
      if (Date.now() > deadline) throw new Error(`no worker started ${id} within 10 s`);
      await sleep(50);
      victim = workerRunning(h, id);
    }
    // Well into the held download, so the kill lands in the middle of the job.
    await sleep(1500);
    observation = begin(h, FAULTS.workerKill);
    h.system.book.expectExit(victim.proc);
    victim.proc.child.kill('SIGKILL');
    await victim.proc.exited;
    h.system.workers.splice(h.system.workers.indexOf(victim), 1);
    observation.facts = { killedWorker: victim.proc.name, killedPid: victim.proc.child.pid ?? null, job: id };
  } finally {
    h.system.board.setMediaDelay(0);
    h.load.releaseThumbs();
  }
  const replacement = await h.system.startWorker();
  observation.backAt = Date.now();
  observation.facts.replacement = replacement.proc.name;
  observation.readyAfter = await waitForReady(readyTargets(h.system), Date.now() + RECOVERY_WATCH_MS);
  while (
    h.endpoints.jobs.get(id)?.endedAt === undefined &&
    Date.now() - observation.injectedAt < STALLED_RETRY_LIMIT_MS
  )
    await sleep(100);
  observation.endedAt = Date.now();
  return observation;
}

/**
 * SIGTERM to the shortener while the load runs and a few creates are sure to be in flight (their
 * bodies are still arriving); it must answer those, exit 0, and a new one takes its port.
 */
export async function serviceTerm(h: Harness): Promise<FaultObservation> {
  const inFlight = Array.from({ length: IN_FLIGHT_CREATES }, () =>
    h.endpoints.create(h.endpoints.probe, 'probe', { bodyPauseMs: 1000 }),
  );
  await sleep(300);
  const observation = begin(h, FAULTS.serviceTerm);
  const proc = h.system.service('shortener');
  h.system.book.expectExit(proc);
  proc.child.kill('SIGTERM');
  const exited = await Promise.race([proc.exited, sleep(DRAIN_LIMIT_MS).then(() => undefined)]);
  if (!exited) {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
  observation.facts = {
    exitCode: exited?.code ?? null,
    exitSignal: exited?.signal ?? (exited ? null : 'SIGKILL after 15 s'),
    drainMs: Date.now() - observation.injectedAt,
  };
  // Sent through the request log, so their answers are judged with the rest.
  await Promise.all(inFlight);
  await h.system.restartService('shortener');
  const backAt = Date.now();
  h.endpoints.codes.cacheDropped(backAt);
  await watchRecovery(h, observation, backAt);
  return observation;
}
