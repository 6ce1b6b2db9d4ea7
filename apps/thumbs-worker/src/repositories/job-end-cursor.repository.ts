import type { RedisClient } from '@pawlink/service-kit/redis';

/** Moves the cursor forward only: stream ids `<ms>-<seq>` compared as numbers. */
const ADVANCE_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current then
  local cms, cseq = string.match(current, '^(%d+)-(%d+)$')
  local nms, nseq = string.match(ARGV[1], '^(%d+)-(%d+)$')
  if cms and nms and (tonumber(cms) > tonumber(nms) or (tonumber(cms) == tonumber(nms) and tonumber(cseq) >= tonumber(nseq))) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`;

/**
 * How far the thumbnail queue's event stream has been handled for callbacks, shared by every
 * worker that sees job ends: a restarted one goes on from there instead of from "now", so an end
 * that happened while no worker was watching still gets its callbacks.
 */
export class JobEndCursorRepository {
  private readonly key: string;

  constructor(
    private readonly redis: RedisClient,
    redisPrefix: string,
  ) {
    this.key = `${redisPrefix}thumbs:callbacks:cursor`;
  }

  /** The last handled event id, or undefined before the first. */
  async read(): Promise<string | undefined> {
    return (await this.redis.get(this.key)) ?? undefined;
  }

  async advance(eventId: string): Promise<void> {
    await this.redis.eval(ADVANCE_SCRIPT, 1, this.key, eventId);
  }
}
