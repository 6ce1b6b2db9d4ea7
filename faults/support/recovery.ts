import { setTimeout as sleep } from 'node:timers/promises';
import type { ThumbnailJobKey } from './board-posts.js';
import { isSuccess } from './contract.js';
import type { Endpoints } from './endpoints.js';
import type { Answer } from './request-log.js';

/** After a dependency returns, every endpoint kind succeeds again within this (issue 12, "Recover alone"). */
export const RECOVERY_LIMIT_MS = 5000;
/** How long the suite keeps trying before it records "not recovered" and moves on. */
export const RECOVERY_WATCH_MS = 15_000;

export interface RoundResult {
  ok: boolean;
  /** The kinds that did not succeed, with what they answered. */
  failures: string[];
  endedAt: number;
}

const describe = ({ record }: Answer): string =>
  `${record.kind}: ${record.status ?? record.failure ?? '?'}${record.code !== undefined ? ` code ${record.code}` : ''}${record.wrong ? ` (${record.wrong})` : ''}`;

/**
 * One request of every kind: a create, then a redirect of that new code (a cold read through Redis
 * and MySQL), random images with the key and without, a PUT of a fresh thumbnail job and its check.
 */
export async function fullSuccessRound(endpoints: Endpoints, freshJob: () => ThumbnailJobKey): Promise<RoundResult> {
  const job = freshJob();
  const { probe } = endpoints;
  const [create, put, keyed, anonymous] = await Promise.all([
    endpoints.create(probe, 'probe'),
    endpoints.thumbPut(probe, 'probe', job),
    endpoints.random(probe, 'probe', false),
    endpoints.random(probe, 'probe', true),
  ]);
  const answers: Answer[] = [create, put, keyed, anonymous];
  const created = create.record.created;
  if (created) answers.push(await endpoints.redirect(probe, 'probe', created.code, created.url));
  if (put.record.status === 202) answers.push(await endpoints.thumbCheck(probe, 'probe', job));
  const failures = answers.filter((answer) => !isSuccess(answer.record)).map(describe);
  if (!created) failures.push('redirect: not tried (no code created)');
  if (put.record.status !== 202 && put.record.status !== 200) failures.push('thumb-check: not tried (PUT failed)');
  return { ok: failures.length === 0, failures, endedAt: Date.now() };
}

export interface RecoveryResult {
  /** End of the first round in which every kind succeeded; undefined when none did in time. */
  fullSuccessAt?: number;
  rounds: number;
  /** What the last round that failed saw. */
  lastFailures: string[];
}

/** Rounds back to back (200 ms apart) from `since` until one fully succeeds or RECOVERY_WATCH_MS has passed. */
export async function waitForFullRecovery(
  endpoints: Endpoints,
  freshJob: () => ThumbnailJobKey,
  since: number,
): Promise<RecoveryResult> {
  let rounds = 0;
  let lastFailures: string[] = [];
  while (Date.now() - since < RECOVERY_WATCH_MS) {
    rounds++;
    const round = await fullSuccessRound(endpoints, freshJob);
    if (round.ok) return { fullSuccessAt: round.endedAt, rounds, lastFailures };
    lastFailures = round.failures;
    await sleep(200);
  }
  return { rounds, lastFailures };
}
