import { thumbnailCallbacksKey } from '@pawlink/contracts';
import type { RedisClient } from '@pawlink/service-kit/redis';

/** One callback URL registered for a job (by `PUT …?callbackURL=`), and the key whose secret signs it. */
export interface CallbackRegistration {
  callbackURL: string;
  apiKeyId: number;
  /** Unix ms by Redis's clock, which also stamps the queue's events. */
  registeredAt: number;
  /** The stored value, to forget exactly this registration. */
  stored: string;
}

/** Deletes the fields whose values are still the ones read: a URL registered again meanwhile (for the next job) stays. */
const FORGET_SCRIPT = `
local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then removed = removed + redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return removed
`;

/** The callback URLs registered per thumbnail job (contracts' `thumbnailCallbacksKey`), read and forgotten when the job ends. */
export class CallbackRegistrationRepository {
  constructor(
    private readonly redis: RedisClient,
    private readonly redisPrefix: string,
  ) {}

  async registered(jobId: string): Promise<CallbackRegistration[]> {
    const fields = await this.redis.hgetall(thumbnailCallbacksKey(this.redisPrefix, jobId));
    const registrations: CallbackRegistration[] = [];
    for (const [callbackURL, stored] of Object.entries(fields)) {
      const match = /^(\d+):(\d+)$/.exec(stored);
      if (match)
        registrations.push({ callbackURL, apiKeyId: Number(match[1]), registeredAt: Number(match[2]), stored });
    }
    return registrations;
  }

  /** Forgets `registrations` once their deliveries are queued. */
  async forget(jobId: string, registrations: readonly CallbackRegistration[]): Promise<void> {
    if (registrations.length === 0) return;
    const args = registrations.flatMap((entry) => [entry.callbackURL, entry.stored]);
    await this.redis.eval(FORGET_SCRIPT, 1, thumbnailCallbacksKey(this.redisPrefix, jobId), ...args);
  }
}
