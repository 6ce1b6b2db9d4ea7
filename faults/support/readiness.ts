import { setTimeout as sleep } from 'node:timers/promises';
import { DEPENDENCY_UNAVAILABLE } from './contract.js';
import { REQUEST_TIMEOUT_MS } from './request-log.js';

/** A `/ready` to ask: a service's, or a worker's on its WORKER_HEALTH_PORT. */
export interface ReadyTarget {
  name: string;
  kind: 'service' | 'worker';
  url: string;
}

export interface ReadyProbe {
  target: string;
  kind: ReadyTarget['kind'];
  at: number;
  latencyMs: number;
  status: number | null;
  body: any;
  /** Why there was no answer: `refused` from a worker means it serves no health port. */
  failure?: 'timeout' | 'refused' | 'network';
}

export type Dependency = 'redis' | 'database';

/** The services need Redis and the database; the worker Redis and its media directory. */
const needs = (kind: ReadyTarget['kind'], dependency: Dependency): boolean =>
  kind === 'service' || dependency === 'redis';

export async function probeReady(target: ReadyTarget): Promise<ReadyProbe> {
  const at = Date.now();
  const began = performance.now();
  const probe: ReadyProbe = { target: target.name, kind: target.kind, at, latencyMs: 0, status: null, body: undefined };
  try {
    const response = await fetch(`${target.url}/ready`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await response.text();
    probe.status = response.status;
    try {
      probe.body = JSON.parse(text);
    } catch {
      probe.body = text.slice(0, 200);
    }
  } catch (error) {
    const err = error as { name?: string; cause?: { code?: string } };
    probe.failure =
      err.name === 'TimeoutError' ? 'timeout' : err.cause?.code === 'ECONNREFUSED' ? 'refused' : 'network';
  }
  probe.latencyMs = Math.round(performance.now() - began);
  return probe;
}

export const probeAll = (targets: ReadyTarget[]): Promise<ReadyProbe[]> => Promise.all(targets.map(probeReady));

/** A worker that refuses the connection has no health port (yet): nothing to judge. */
const notServed = (probe: ReadyProbe): boolean => probe.kind === 'worker' && probe.failure === 'refused';

const seen = (probe: ReadyProbe): string =>
  `${probe.target}: ${probe.status ?? probe.failure} ${JSON.stringify(probe.body) ?? ''}`;

/**
 * While `dependency` is down, a process that needs it answers 503 `{success:false, code:1004,
 * checks:{<dependency>:"down"}}`; one that does not need it stays 200.
 */
export function readyWhileDownViolation(probe: ReadyProbe, dependency: Dependency): string | undefined {
  if (notServed(probe)) return undefined;
  if (!needs(probe.kind, dependency)) return readyViolation(probe);
  const body = probe.body as { success?: unknown; code?: unknown; checks?: Record<string, unknown> } | undefined;
  const ok =
    probe.status === 503 &&
    body?.success === false &&
    body.code === DEPENDENCY_UNAVAILABLE &&
    body.checks?.[dependency] === 'down';
  return ok ? undefined : `${seen(probe)} (expected 503 code 1004 with checks.${dependency} "down")`;
}

/** A process with everything it needs answers 200 `{success:true, ready:true, checks:{...all "up"}}`. */
export function readyViolation(probe: ReadyProbe): string | undefined {
  if (notServed(probe)) return undefined;
  const body = probe.body as { success?: unknown; ready?: unknown; checks?: Record<string, unknown> } | undefined;
  const checks = Object.values(body?.checks ?? {});
  const ok =
    probe.status === 200 &&
    body?.success === true &&
    body.ready === true &&
    checks.length > 0 &&
    checks.every((check) => check === 'up');
  return ok ? undefined : `${seen(probe)} (expected 200 ready with every check "up")`;
}

/** Asks every target until all are ready or `until` has passed; returns the last answers and when all were ready. */
export async function waitForReady(
  targets: ReadyTarget[],
  until: number,
): Promise<{ readyAt?: number; probes: ReadyProbe[] }> {
  for (;;) {
    const probes = await probeAll(targets);
    if (probes.every((probe) => readyViolation(probe) === undefined)) return { readyAt: Date.now(), probes };
    if (Date.now() > until) return { probes };
    await sleep(250);
  }
}
