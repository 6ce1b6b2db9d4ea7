/*
 * The Lua of the fixed-window counters (`rate-limit.repository.ts`). A module of its own, with no
 * imports, so a benchmark ceiling can run the same script without loading the package.
 */

/**
 * Counts one hit in each key's fixed window atomically; returns counts and ms left. One call
 * carries the windows of every hit of an event-loop turn (`RedisRateLimitWindows.hit`).
 */
export const HIT_SCRIPT = `
local result = {}
for i = 1, #KEYS do
  local count = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], ARGV[i])
    ttl = tonumber(ARGV[i])
  end
  result[#result + 1] = count
  result[#result + 1] = ttl
end
return result
`;

/** Takes back one hit, never below zero, and never creates the window. */
export const REFUND_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`;

/** Reads each key's count and ms left without counting anything; 0 and 0 for a window not open. */
export const PEEK_SCRIPT = `
local result = {}
for i = 1, #KEYS do
  result[#result + 1] = tonumber(redis.call('GET', KEYS[i]) or '0')
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then ttl = 0 end
  result[#result + 1] = ttl
end
return result
`;

/**
 * Takes `units` in every window only when all of them fit (count + units ≤ limit, limit 0 meaning
 * unlimited), else in none. KEYS: the windows; ARGV: windowMs, units and limit per window.
 * Returns 1 or 0 (taken or not), then each window's count (after taking) and ms left (0 for a
 * window not open).
 */
export const TAKE_IF_FITS_SCRIPT = `
local fits = 1
for i = 1, #KEYS do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  local limit = tonumber(ARGV[3 * i])
  if limit > 0 and count + tonumber(ARGV[3 * i - 1]) > limit then fits = 0 end
end
local result = { fits }
for i = 1, #KEYS do
  local count
  if fits == 1 then
    count = redis.call('INCRBY', KEYS[i], ARGV[3 * i - 1])
  else
    count = tonumber(redis.call('GET', KEYS[i]) or '0')
  end
  local ttl = redis.call('PTTL', KEYS[i])
  if fits == 1 and ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], ARGV[3 * i - 2])
    ttl = tonumber(ARGV[3 * i - 2])
  end
  if ttl < 0 then ttl = 0 end
  result[#result + 1] = count
  result[#result + 1] = ttl
end
return result
`;

/**
 * Leases a block of units from each key's fixed window (docs/adr/0021): grants what is asked, or
 * what is left below the limit when that is less (0 when the window is full), so the count never
 * passes the limit. KEYS: the windows; ARGV: windowMs, units wanted and limit (> 0) per window.
 * Returns, per window, the units granted, the count after granting and the ms left (0 for a window
 * not open).
 */
export const LEASE_SCRIPT = `
local result = {}
for i = 1, #KEYS do
  local limit = tonumber(ARGV[3 * i])
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  local grant = math.min(tonumber(ARGV[3 * i - 1]), limit - count)
  if grant < 0 then grant = 0 end
  if grant > 0 then count = redis.call('INCRBY', KEYS[i], grant) end
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl == -1 then
    redis.call('PEXPIRE', KEYS[i], ARGV[3 * i - 2])
    ttl = tonumber(ARGV[3 * i - 2])
  end
  if ttl < 0 then ttl = 0 end
  result[#result + 1] = grant
  result[#result + 1] = count
  result[#result + 1] = ttl
end
return result
`;
