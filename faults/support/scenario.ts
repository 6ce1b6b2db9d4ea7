import { setTimeout as sleep } from 'node:timers/promises';
import { drainFigures, faultFigures, faultWindows, violations, type FaultFigures, type Violation } from './analysis.js';
import type { ThumbnailJobKey } from './board-posts.js';
import type { FaultWindows } from './contract.js';
import { CreatedCodes } from './created-codes.js';
import { Endpoints } from './endpoints.js';
import { CATEGORY, type FaultSystem } from './fault-system.js';
import {
  databaseKill,
  databasePause,
  FAULTS,
  redisKill,
  serviceTerm,
  workerKill,
  type FaultObservation,
  type Harness,
} from './faults.js';
import { checkJsonLogs, verifyAcknowledgedWrites, type LogViolation, type WriteCheck } from './final-checks.js';
import { sweepOpenJobs, watchOpenJobs } from './job-watch.js';
import { JobTracker, type TrackedJob } from './job-tracker.js';
import { Load } from './load.js';
import type { BookedProcess } from './process-book.js';
import { faultTable } from './report.js';
import { RequestLog, type RequestRecord } from './request-log.js';

/** Load before the first fault, so caches are warm and every client has answers to compare. */
const WARMUP_MS = 8000;
/** Quiet load between two faults: a fault's effects must not run into the next one's figures. */
const SETTLE_MS = 3000;
/** Every job acknowledged during the run has ended this long after the last fault (issue 12: "no job stuck"). */
export const JOB_END_LIMIT_MS = 30_000;

export interface ScenarioResult {
  startedAt: number;
  durationMs: number;
  observations: FaultObservation[];
  figures: Array<{ name: string; figures: FaultFigures }>;
  records: RequestRecord[];
  windows: FaultWindows;
  violations: Violation[];
  writes: WriteCheck;
  jobs: TrackedJob[];
  lastFaultEndedAt: number;
  /** The job running in the killed worker: the kill, and when it ended (undefined: not by the end of the suite). */
  killedJob: { id: string; killedAt: number; endedAt?: number; outcome?: string };
  /** Exits the suite did not cause, recorded before the final stop. */
  unexpectedExits: Array<Pick<BookedProcess, 'role' | 'exit'> & { name: string; tail: string }>;
  logViolations: LogViolation[];
  table: string;
}

/**
 * The whole run: the mixed load, then each fault with a recovery check after it, then the final
 * checks (open jobs, acknowledged writes), the final stop and the logs of every process.
 */
export async function runScenario(system: FaultSystem): Promise<ScenarioResult> {
  const startedAt = Date.now();
  const log = new RequestLog();
  const endpoints = new Endpoints(
    { url: (name) => system.url(name), key: system.key, category: CATEGORY },
    log,
    new CreatedCodes(),
    new JobTracker(),
  );
  const load = new Load(endpoints, system.loadJobs);
  const spare = [...system.spareJobs];
  // Past the spare jobs, probes reuse the load's (a PUT of a finished one answers 200, which still counts).
  let reused = 0;
  const freshJob = (): ThumbnailJobKey => spare.shift() ?? system.loadJobs[reused++ % system.loadJobs.length]!;
  const h: Harness = { system, endpoints, load, freshJob };

  const observations: FaultObservation[] = [];
  const stopWatch = new AbortController();
  const watch = watchOpenJobs(endpoints, stopWatch.signal);
  load.start();
  try {
    await sleep(WARMUP_MS);
    for (const fault of [redisKill, databasePause, databaseKill, workerKill, serviceTerm]) {
      observations.push(await fault(h));
      await sleep(SETTLE_MS);
    }
  } finally {
    await load.stop();
    stopWatch.abort();
    await watch;
  }
  const lastFaultEndedAt = Date.now();
  await sweepOpenJobs(endpoints, lastFaultEndedAt + JOB_END_LIMIT_MS);
  const killed = observations.find((observation) => observation.name === FAULTS.workerKill)!;
  const killedJobId = String(killed.facts.job);
  const writes = await verifyAcknowledgedWrites(system, endpoints);
  endpoints.probe.close();

  const unexpectedExits = system.book
    .unexpectedExits()
    .map((entry) => ({ name: entry.proc.name, role: entry.role, exit: entry.exit, tail: entry.proc.tail(1500) }));
  await system.book.stopAll();
  const logViolations = checkJsonLogs(system.book.entries);

  const term = observations.find((observation) => observation.name === FAULTS.serviceTerm);
  if (term) Object.assign(term.facts, drainFigures(term, log.records));
  const windows = faultWindows(observations);
  const found = violations(log.records, windows);
  const figures = observations.map((observation) => ({
    name: observation.name,
    figures: faultFigures(observation, log.records, found, endpoints.jobs.jobs, writes),
  }));
  return {
    startedAt,
    durationMs: Date.now() - startedAt,
    observations,
    figures,
    records: log.records,
    windows,
    violations: found,
    writes,
    jobs: [...endpoints.jobs.jobs.values()],
    lastFaultEndedAt,
    killedJob: {
      id: killedJobId,
      killedAt: killed.injectedAt,
      endedAt: endpoints.jobs.get(killedJobId)?.endedAt,
      outcome: endpoints.jobs.get(killedJobId)?.outcome,
    },
    unexpectedExits,
    logViolations,
    table: faultTable(figures),
  };
}
