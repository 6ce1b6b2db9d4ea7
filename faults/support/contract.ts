import type { ServiceName } from '@pawlink/test-kit';
import { SERVICE_OF, type EndpointKind, type RequestRecord } from './request-log.js';

/** docs/api.md §5: a dependency (Redis, the database) cannot be reached or does not answer in time. */
export const DEPENDENCY_UNAVAILABLE = 1004;

/**
 * What docs/api.md documents for each kind of request the load sends — well-formed requests with
 * an unlimited key, so validation and rate-limit failures are not among them. 503 1004 is judged
 * apart: it is documented only while a dependency is down.
 */
export const DOCUMENTED_ANSWERS: Record<
  EndpointKind,
  { success: number[]; errors: Array<[status: number, code: number]> }
> = {
  create: { success: [201, 200], errors: [[503, 1003]] },
  redirect: { success: [302], errors: [] },
  'random-keyed': { success: [200], errors: [] },
  'random-anonymous': { success: [200], errors: [] },
  'thumb-put': {
    success: [200, 202],
    errors: [
      [500, 1060],
      [404, 1068],
      [408, 1065],
      [429, 1069],
      [503, 1067],
      [503, 1003],
    ],
  },
  'thumb-check': {
    success: [200, 201],
    errors: [
      [404, 1066],
      [404, 1068],
      [500, 1060],
      [408, 1065],
      [503, 1003],
    ],
  },
};

export interface TimeWindow {
  from: number;
  /** Infinity while it lasts. */
  to: number;
}

/** When a dependency was down (plus the recovery allowance), and when a service was not running. */
export interface FaultWindows {
  outages: TimeWindow[];
  stopped: Array<TimeWindow & { service: ServiceName }>;
}

const overlaps = (record: RequestRecord, window: TimeWindow): boolean =>
  record.startedAt <= window.to && record.endedAt >= window.from;

/** True when the answer is the kind's documented success with the right content. */
export function isSuccess(record: RequestRecord): boolean {
  return (
    record.status !== null &&
    DOCUMENTED_ANSWERS[record.kind].success.includes(record.status) &&
    record.wrong === undefined
  );
}

/** Why `record` breaks the contract under the faults in `windows`, or undefined when it does not. */
export function contractViolation(record: RequestRecord, windows: FaultWindows): string | undefined {
  if (record.status === null) {
    if (record.failure === 'timeout') return 'no answer within 3 s';
    const stopped = windows.stopped.some((w) => w.service === SERVICE_OF[record.kind] && overlaps(record, w));
    if (record.failure === 'refused' && stopped) return undefined;
    return `${record.failure ?? 'network'} (${record.error ?? ''})`;
  }
  if (record.wrong !== undefined) return `wrong ${record.status} answer: ${record.wrong}`;
  const documented = DOCUMENTED_ANSWERS[record.kind];
  if (documented.success.includes(record.status)) return undefined;
  if (record.status === 503 && record.code === DEPENDENCY_UNAVAILABLE) {
    if (!windows.outages.some((w) => overlaps(record, w))) return '503 1004 while every dependency was up';
    return record.hasRetryAfter ? undefined : '503 1004 without Retry-After';
  }
  if (documented.errors.some(([status, code]) => status === record.status && code === record.code)) return undefined;
  return `undocumented ${record.status} code ${record.code ?? '-'}`;
}
