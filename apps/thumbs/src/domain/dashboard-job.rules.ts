import {
  MD5_LOWER_PATTERN,
  THUMBNAIL_JOB,
  THUMBNAIL_TYPES,
  thumbnailJobId,
  type ThumbnailType,
} from '@pawlink/contracts';
import { failureSentence } from './thumbnail-state.rules.js';

const PAYLOAD_KEYS = new Set(['md5', 'type', 'requestedAt', 'postId']);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why `data` is not a thumbnail job's payload (`ThumbnailJobPayload`), or undefined when it is:
 * `{md5, type, requestedAt, postId?}` with a lower-case MD5, a known type, a non-negative
 * `requestedAt` (unix ms) and a positive integer `postId`, nothing else.
 */
export function thumbnailPayloadProblem(data: unknown): string | undefined {
  if (!isRecord(data)) return 'data must be an object {md5, type, requestedAt, postId?}.';
  const extra = Object.keys(data).filter((key) => !PAYLOAD_KEYS.has(key));
  if (extra.length > 0) return `data has unknown fields: ${extra.slice(0, 5).join(', ')}.`;
  if (typeof data.md5 !== 'string' || !MD5_LOWER_PATTERN.test(data.md5))
    return 'data.md5 must be 32 lower-case hex digits.';
  if (!(THUMBNAIL_TYPES as readonly unknown[]).includes(data.type))
    return `data.type must be one of ${THUMBNAIL_TYPES.join(', ')}.`;
  if (typeof data.requestedAt !== 'number' || !Number.isSafeInteger(data.requestedAt) || data.requestedAt < 0)
    return 'data.requestedAt must be unix milliseconds.';
  if (
    data.postId !== undefined &&
    (typeof data.postId !== 'number' || !Number.isSafeInteger(data.postId) || data.postId < 1)
  )
    return 'data.postId must be a positive integer.';
  return undefined;
}

/**
 * Why a job added from the dashboard (bull-board's `add`: `{name, data, options}`) is not a
 * thumbnail job, or undefined when it is: the one job name, a payload the worker takes, and, when
 * `options.jobId` is given, the deterministic id of its MD5 and type (one job per file and type).
 */
export function dashboardAddProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'expected a JSON object {name, data, options?}.';
  if (body.name !== THUMBNAIL_JOB) return `name must be "${THUMBNAIL_JOB}".`;
  const problem = thumbnailPayloadProblem(body.data);
  if (problem) return problem;
  if (body.options !== undefined && !isRecord(body.options)) return 'options must be an object.';
  const jobId = isRecord(body.options) ? body.options.jobId : undefined;
  const data = body.data as { md5: string; type: ThumbnailType };
  const expected = thumbnailJobId(data.md5, data.type);
  if (jobId !== undefined && jobId !== expected) return `options.jobId must be "${expected}" (or left out).`;
  return undefined;
}

/**
 * bull-board's answer with the failure details of every job in it cut down: `stacktrace` emptied
 * (server paths, library frames) and `failedReason` cut to its sentence. Jobs are found wherever
 * they sit in the answer (queue listings, one job, a flow's tree).
 */
export function withoutStackTraces(value: unknown, depth = 0): unknown {
  if (depth > 32) return value;
  if (Array.isArray(value)) return value.map((item) => withoutStackTraces(item, depth + 1));
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'stacktrace' && Array.isArray(item)) result[key] = [];
    else if (key === 'failedReason' && typeof item === 'string') result[key] = failureSentence(item);
    else result[key] = withoutStackTraces(item, depth + 1);
  }
  return result;
}
