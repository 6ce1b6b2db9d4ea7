/*
 * The script that reads a thumbnail job for the API, apart from the repository that runs it so
 * the benchmark's contract-I/O ceiling can send the very same read (a module without BullMQ).
 */
import type { RedisClient } from '@pawlink/service-kit/redis';

/** The queue keys READ_JOB_SCRIPT reads, in its KEYS order (the job's hash follows them). */
export const READ_JOB_KEYS = [
  'completed',
  'failed',
  'delayed',
  'prioritized',
  'active',
  'wait',
  'waiting-children',
] as const;

/** The fields of a job's hash that the API answers from (BullMQ stores about ten more: data, opts, …). */
export const READ_JOB_FIELDS = ['timestamp', 'progress', 'processedOn', 'finishedOn', 'failedReason', 'delay'] as const;
export type ReadJobField = (typeof READ_JOB_FIELDS)[number];

/**
 * A job's state, the fields of its hash the API uses and the queue's lengths, in one atomic read:
 * {state, active, wait, prioritized, values of READ_JOB_FIELDS}, or {'unknown'} without a job.
 * The state is decided in BullMQ's getState order, except that the wait list is not walked: a
 * stored job in none of the sorted sets and not in the active list is waiting (BullMQ keeps every
 * job in exactly one of them and moves it between them inside its scripts). LPOS over the wait
 * list was the part of the check that grew with the queue (ADR 0011, "The check's place in the
 * queue from a snapshot"); the job's place comes from WaitListSnapshot.
 */
export const READ_JOB_SCRIPT = `
local id = ARGV[1]
if redis.call('EXISTS', KEYS[8]) == 0 then return {'unknown'} end
local state = 'waiting'
if redis.call('ZSCORE', KEYS[1], id) then state = 'completed'
elseif redis.call('ZSCORE', KEYS[2], id) then state = 'failed'
elseif redis.call('ZSCORE', KEYS[3], id) then state = 'delayed'
elseif redis.call('ZSCORE', KEYS[4], id) then state = 'prioritized'
elseif redis.call('LPOS', KEYS[5], id) then state = 'active'
elseif redis.call('ZSCORE', KEYS[7], id) then state = 'waiting-children' end
return {state, redis.call('LLEN', KEYS[5]), redis.call('LLEN', KEYS[6]), redis.call('ZCARD', KEYS[4]),
  redis.call('HMGET', KEYS[8], '${READ_JOB_FIELDS.join("', '")}')}
`;

/** What READ_JOB_SCRIPT answers, decoded. */
export interface ReadJobAnswer {
  state: string;
  active: number;
  waiting: number;
  prioritized: number;
  /** The job's READ_JOB_FIELDS that are set; empty when there is no job. */
  hash: Map<ReadJobField, string>;
}

type RawAnswer = [string, number?, number?, number?, Array<string | null>?];
type ReadJobCommand = (...keysAndId: string[]) => Promise<RawAnswer>;

/**
 * READ_JOB_SCRIPT as a command of `redis`, defined once per client and then sent by its SHA (a
 * read sends the id, not the script): `read(queueKeys, jobKey, id)`, the queue keys in
 * READ_JOB_KEYS order, each prefixed as the queue names them.
 */
export function jobReader(
  redis: RedisClient,
): (queueKeys: readonly string[], jobKey: string, id: string) => Promise<ReadJobAnswer> {
  const commands = redis as unknown as Record<string, ReadJobCommand | undefined>;
  if (typeof commands.pawlinkReadThumbnailJob !== 'function')
    redis.defineCommand('pawlinkReadThumbnailJob', { numberOfKeys: READ_JOB_KEYS.length + 1, lua: READ_JOB_SCRIPT });
  const command = (commands.pawlinkReadThumbnailJob as ReadJobCommand).bind(redis);
  return async (queueKeys, jobKey, id) => {
    const [state, active = 0, waiting = 0, prioritized = 0, values = []] = await command(...queueKeys, jobKey, id);
    const hash = new Map<ReadJobField, string>();
    READ_JOB_FIELDS.forEach((field, i) => {
      const value = values[i];
      if (value !== null && value !== undefined) hash.set(field, value);
    });
    return { state, active, waiting, prioritized, hash };
  };
}
