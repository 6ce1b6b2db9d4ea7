/*
 * The script that reads a thumbnail job for the API, apart from the repository that runs it so
 * the benchmark's contract-I/O ceiling can send the very same read (a module without BullMQ).
 */

/** The queue keys READ_JOB_SCRIPT reads, in its KEYS order (the job's hash follows them). */
export const READ_JOB_KEYS = ['completed', 'failed', 'delayed', 'prioritized', 'active', 'wait', 'paused', 'waiting-children'] as const;

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
