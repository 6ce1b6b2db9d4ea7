import { HIT_SCRIPT } from '@pawlink/auth/rate-limit-scripts';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The windows a rate-limited endpoint counts each request in (its route bucket and the global one). */
export interface CeilingRateLimitConfig {
  /** Where the ceiling's windows live in Redis, apart from the service's. */
  prefix: string;
  bucket: string;
  routeWindowMs: number;
  globalWindowMs: number;
  limit: number;
}

/** What the ceiling needs of ioredis: a script command (auto-pipelined, so it shares a write with the endpoint's own command). */
interface ScriptHost {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
}

type HitCommand = (
  routeKey: string,
  globalKey: string,
  routeWindowMs: number,
  globalWindowMs: number,
) => Promise<[number, number, number, number]>;

/**
 * The least I/O a rate-limited endpoint of the contract must do besides its own: count the request
 * in its route and global windows, shared by every instance (one call of the service's own script
 * by its SHA, started in the same tick as the endpoint's command so both go in one write), and send the
 * X-RateLimit headers. Who is counted is the `Authorization` header as sent, or the forwarded
 * client address: the key lookup itself is CPU, not I/O, and is left to the service.
 */
export function ceilingRateLimit(redis: ScriptHost, config: CeilingRateLimitConfig) {
  const { prefix, bucket, routeWindowMs, globalWindowMs, limit } = config;
  redis.defineCommand('ceilingRateLimitHit', { numberOfKeys: 2, lua: HIT_SCRIPT });
  const hit = (redis as unknown as { ceilingRateLimitHit: HitCommand }).ceilingRateLimitHit.bind(redis);
  return async function countRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const who = req.headers.authorization ?? req.headers['x-forwarded-for'] ?? req.socket.remoteAddress;
    const identity = `{${String(who)}}`;
    const [count, resetInMs] = await hit(
      `${prefix}${bucket}:${identity}`,
      `${prefix}global:${identity}`,
      routeWindowMs,
      globalWindowMs,
    );
    const resetAfter = resetInMs / 1000;
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('X-RateLimit-Reset', String(Math.round((Date.now() + resetInMs) / 10) / 100));
    res.setHeader('X-RateLimit-Reset-After', String(Math.round(resetAfter * 1000) / 1000));
    res.setHeader('X-RateLimit-Bucket', bucket);
  };
}
