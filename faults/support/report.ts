import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '@pawlink/test-kit';
import { answerStats, summarise, type FaultFigures } from './analysis.js';
import type { ScenarioResult } from './scenario.js';

const seconds = (ms: number | undefined, missing = 'never'): string =>
  ms === undefined ? missing : `${(ms / 1000).toFixed(1)} s`;

/** The measured figures as a Markdown table (docs/reliability-and-security.md). */
export function faultTable(rows: ReadonlyArray<{ name: string; figures: FaultFigures }>): string {
  const lines = [
    '| fault | requests | 503 1004 | contract violations | max latency | back → every endpoint OK | back → /ready 200 | jobs open at the fault → ended (the last, after the fault) | creates acknowledged / lost |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { name, figures: f } of rows) {
    const jobs = f.openJobs === 0 ? '0' : `${f.openJobsEnded}/${f.openJobs} (${seconds(f.openJobsLastEndedMs, '–')})`;
    lines.push(
      `| ${name} | ${f.requests} | ${f.answered1004} | ${f.violations} | ${f.maxLatencyMs} ms | ${f.recoveryWatched ? seconds(f.recoveryMs) : '–'} | ${seconds(f.readyMs)} | ${jobs} | ${f.creates} / ${f.lostCreates} |`,
    );
  }
  return lines.join('\n');
}

/** What the run measured, for the test output: the table and the figures that are not per fault. */
export function faultSummary(result: ScenarioResult): string {
  const { killedJob, writes } = result;
  const workerProbes = result.observations
    .flatMap((o) => [...o.readyDuring, ...(o.readyAfter?.probes ?? [])])
    .filter((probe) => probe.kind === 'worker');
  const unserved = workerProbes.filter((probe) => probe.failure === 'refused').length;
  const term = result.observations.find((o) => o.facts.drainMs !== undefined)?.facts ?? {};
  return [
    `fault suite: ${result.records.length} requests in ${seconds(result.durationMs)}`,
    result.table,
    `killed worker's job ${killedJob.id}: ended ${killedJob.endedAt === undefined ? 'never' : `${killedJob.outcome} ${seconds(killedJob.endedAt - killedJob.killedAt)} after the kill`}`,
    `shortener SIGTERM: exit ${term.exitCode ?? term.exitSignal} after ${term.drainMs} ms; ${term.inFlightAnswered}/${term.inFlight} requests in flight answered, ${term.refused} refused while it was down, ${term.resets} resets`,
    `acknowledged creates ${writes.checked}, lost ${writes.lost.length}; committed although the client saw no acknowledgement: ${writes.committedUnacknowledged}`,
    unserved === workerProbes.length
      ? `worker /ready: no health port answered (${workerProbes.length} probes refused): not judged`
      : `worker /ready: ${workerProbes.length - unserved} of ${workerProbes.length} probes answered`,
    `details: ${REPORT_FILE}`,
  ].join('\n');
}

/** Where the run's details go (CI uploads test-results/ as an artifact). */
export const REPORT_FILE = path.join(REPO_ROOT, 'test-results', 'faults-report.json');

/** Writes what a failing assertion needs to be understood: every observation, the grouped violations, the open jobs. */
export async function writeReport(result: ScenarioResult): Promise<void> {
  await mkdir(path.dirname(REPORT_FILE), { recursive: true });
  const report = {
    durationMs: result.durationMs,
    requests: result.records.length,
    answers: answerStats(result.records),
    table: result.table.split('\n'),
    observations: result.observations,
    violations: summarise(result.violations, result.startedAt),
    writes: { ...result.writes, lost: result.writes.lost.slice(0, 50) },
    killedJob: result.killedJob,
    openJobs: result.jobs.filter((job) => job.endedAt === undefined),
    unexpectedExits: result.unexpectedExits,
    logViolations: result.logViolations,
  };
  await writeFile(REPORT_FILE, `${JSON.stringify(report, null, 2)}\n`);
}
