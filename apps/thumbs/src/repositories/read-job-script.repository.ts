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
  'paused',
  'waiting-children',
] as const;

/**
 * A job's state as BullMQ's own getState script decides it (same keys, same order), its hash, and
 * the queue lengths in front of it: {state, index in the wait list or -1, active, wait, prioritized, fields}.
 */
export const READ_JOB_SCRIPT = `
local id = ARGV[1]
local state = 'unknown'
local waitIndex = -1
if redis.call('ZSCORE', KEYS[1], id) then state = 'completed'
elseif redis.call('ZSCORE', KEYS[2], id) then state = 'failed'
elseif redis.call('ZSCORE', KEYS[3], id) then state = 'delayed'
elseif redis.call('ZSCORE', KEYS[4], id) then state = 'prioritized'
elseif redis.call('LPOS', KEYS[5], id) then state = 'active'
else
  local index = redis.call('LPOS', KEYS[6], id)
  if index then state = 'waiting'; waitIndex = index
  elseif redis.call('LPOS', KEYS[7], id) then state = 'waiting'
  elseif redis.call('ZSCORE', KEYS[8], id) then state = 'waiting-children' end
end
return {state, waitIndex, redis.call('LLEN', KEYS[5]), redis.call('LLEN', KEYS[6]), redis.call('ZCARD', KEYS[4]), redis.call('HGETALL', KEYS[9])}
`;

/** What READ_JOB_SCRIPT answers, decoded. */
export interface ReadJobAnswer {
  state: string;
  /** The job's index in the wait list, -1 when it is not there. */
  waitIndex: number;
  active: number;
  waiting: number;
  prioritized: number;
  /** The job's hash; empty when there is no job. */
  hash: Map<string, string>;
}

type RawAnswer = [string, number, number, number, number, string[]];
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
    const [state, waitIndex, active, waiting, prioritized, fields] = await command(...queueKeys, jobKey, id);
    const hash = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) hash.set(fields[i]!, fields[i + 1]!);
    return { state, waitIndex, active, waiting, prioritized, hash };
  };
}
