import { contractViolation, DEPENDENCY_UNAVAILABLE, type FaultWindows } from './contract.js';
import type { WriteCheck } from './final-checks.js';
import type { FaultObservation } from './faults.js';
import type { TrackedJob } from './job-tracker.js';
import { RECOVERY_LIMIT_MS } from './recovery.js';
import { SERVICE_OF, type RequestRecord } from './request-log.js';

/** When 503 1004 is documented (the outage plus the recovery allowance) and when a service was not running. */
export function faultWindows(observations: readonly FaultObservation[]): FaultWindows {
  const windows: FaultWindows = { outages: [], stopped: [] };
  for (const observation of observations) {
    const back = observation.backAt ?? observation.endedAt;
    if (observation.dependency) windows.outages.push({ from: observation.injectedAt, to: back + RECOVERY_LIMIT_MS });
    else if (observation.facts.drainMs !== undefined)
      windows.stopped.push({ service: 'shortener', from: observation.injectedAt, to: back });
  }
  return windows;
}

export interface Violation {
  reason: string;
  record: RequestRecord;
}

export function violations(records: readonly RequestRecord[], windows: FaultWindows): Violation[] {
  const found: Violation[] = [];
  for (const record of records) {
    const reason = contractViolation(record, windows);
    if (reason !== undefined) found.push({ reason, record });
  }
  return found;
}

/** A request belongs to a fault when it was under way at some time from the injection to the end of the recovery checks. */
export const duringFault = (record: RequestRecord, observation: FaultObservation): boolean =>
  record.startedAt <= observation.endedAt && record.endedAt >= observation.injectedAt;

/** Violations of requests that were under way during no fault. */
export function betweenFaults(found: readonly Violation[], observations: readonly FaultObservation[]): Violation[] {
  return found.filter(({ record }) => !observations.some((o) => duringFault(record, o)));
}

/** Violations grouped by reason and kind, with a count and the time of the first, for readable failures. */
export function summarise(found: readonly Violation[], since: number): string[] {
  const groups = new Map<string, { count: number; first: number; maxLatency: number }>();
  for (const { reason, record } of found) {
    const key = `${record.kind} (${record.origin}): ${reason.replace(/[0-9a-f]{32}/g, '<md5>').replace(/\/faults\/[0-9a-f]+\/\d+/g, '/faults/…')}`;
    const group = groups.get(key) ?? { count: 0, first: record.startedAt, maxLatency: 0 };
    group.count++;
    group.maxLatency = Math.max(group.maxLatency, record.latencyMs);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].count - a[1].count)
    .map(([key, g]) => {
      const first = (g.first - since) / 1000;
      return `${g.count}× ${key} (first at ${first >= 0 ? '+' : ''}${first.toFixed(1)} s, max ${g.maxLatency} ms)`;
    });
}

export interface FaultFigures {
  requests: number;
  answered1004: number;
  violations: number;
  maxLatencyMs: number;
  /** Whether full-success rounds were run after this fault (not after the worker kill: no endpoint depends on one worker). */
  recoveryWatched: boolean;
  /** Dependency (or replacement) back → end of the first round in which every endpoint kind succeeded. */
  recoveryMs?: number;
  /** Dependency back → every /ready 200. */
  readyMs?: number;
  openJobs: number;
  openJobsEnded: number;
  /** Injection → the last of those jobs ended (as the job watch saw it, within about a second). */
  openJobsLastEndedMs?: number;
  creates: number;
  lostCreates: number;
}

/** What the table shows for one fault: the requests under way from its injection to the end of its recovery checks. */
export function faultFigures(
  observation: FaultObservation,
  records: readonly RequestRecord[],
  found: readonly Violation[],
  jobs: ReadonlyMap<string, TrackedJob>,
  writes: WriteCheck,
): FaultFigures {
  const inWindow = (record: RequestRecord) => duringFault(record, observation);
  const window = records.filter(inWindow);
  const back = observation.backAt ?? observation.injectedAt;
  const open = observation.openJobsAtInjection
    .map((id) => jobs.get(id))
    .filter((job): job is TrackedJob => job !== undefined);
  const ended = open.filter((job) => job.endedAt !== undefined);
  const createdHere = new Set(window.flatMap((record) => (record.created ? [record.created.code] : [])));
  return {
    requests: window.length,
    answered1004: window.filter((record) => record.status === 503 && record.code === DEPENDENCY_UNAVAILABLE).length,
    violations: found.filter(({ record }) => inWindow(record)).length,
    maxLatencyMs: Math.max(0, ...window.map((record) => record.latencyMs)),
    recoveryWatched: observation.recovery !== undefined,
    recoveryMs:
      observation.recovery?.fullSuccessAt !== undefined ? observation.recovery.fullSuccessAt - back : undefined,
    readyMs: observation.readyAfter?.readyAt !== undefined ? observation.readyAfter.readyAt - back : undefined,
    openJobs: open.length,
    openJobsEnded: ended.length,
    openJobsLastEndedMs:
      ended.length > 0
        ? Math.max(...ended.map((job) => (job.endedAt ?? observation.injectedAt) - observation.injectedAt))
        : undefined,
    creates: createdHere.size,
    lostCreates: writes.lost.filter((write) => createdHere.has(write.code)).length,
  };
}

/** The SIGTERM fault's requests to the stopped service: in flight at the signal, refused while it was down, reset. */
export function drainFigures(
  observation: FaultObservation,
  records: readonly RequestRecord[],
): { inFlight: number; inFlightAnswered: number; refused: number; resets: number } {
  const toService = records.filter((record) => SERVICE_OF[record.kind] === 'shortener');
  const inFlight = toService.filter(
    (record) => record.startedAt < observation.injectedAt && record.endedAt > observation.injectedAt,
  );
  const whileDown = toService.filter(
    (record) =>
      record.startedAt >= observation.injectedAt && record.startedAt <= (observation.backAt ?? observation.endedAt),
  );
  return {
    inFlight: inFlight.length,
    inFlightAnswered: inFlight.filter((record) => record.status !== null).length,
    refused: whileDown.filter((record) => record.failure === 'refused').length,
    resets: [...inFlight, ...whileDown].filter((record) => record.failure === 'reset').length,
  };
}

/** How each kind of request was answered over the run (status and code, or why there was no answer), and how fast. */
export function answerStats(
  records: readonly RequestRecord[],
): Record<string, { answers: Record<string, number>; p50Ms: number; p99Ms: number; maxMs: number }> {
  const byKind = new Map<string, RequestRecord[]>();
  for (const record of records) {
    const key = `${record.kind} (${record.origin})`;
    const list = byKind.get(key) ?? [];
    list.push(record);
    byKind.set(key, list);
  }
  const stats: ReturnType<typeof answerStats> = {};
  for (const [key, list] of byKind) {
    const answers: Record<string, number> = {};
    for (const record of list) {
      const answer =
        record.status === null
          ? (record.failure ?? 'network')
          : `${record.status}${record.code !== undefined ? ` ${record.code}` : ''}`;
      answers[answer] = (answers[answer] ?? 0) + 1;
    }
    const latencies = list.map((record) => record.latencyMs).sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    stats[key] = { answers, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: latencies.at(-1) ?? 0 };
  }
  return stats;
}
