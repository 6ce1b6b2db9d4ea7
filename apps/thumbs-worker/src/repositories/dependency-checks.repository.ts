import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Redis } from 'ioredis';

/** What readiness reports per dependency. */
export type DependencyState = 'up' | 'down';

/** Resolves false when `work` has not resolved true within `timeoutMs` (the work itself is left to finish). */
async function withinTime(work: Promise<boolean>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([work.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The worker's dependencies as readiness sees them: Redis answers a PING in time, and the
 * thumbnail directory takes a new file. Never throws: a check that fails or hangs is "down".
 */
export class DependencyChecksRepository {
  constructor(private readonly redis: Redis, private readonly thumbsDir: string, private readonly timeoutMs: number) {}

  /** PING within the timeout; a connection that is not ready is down at once, without queueing a command. */
  async redisState(): Promise<DependencyState> {
    if (this.redis.status !== 'ready') return 'down';
    const up = await withinTime(this.redis.ping().then((answer) => answer === 'PONG'), this.timeoutMs);
    return up ? 'up' : 'down';
  }

  /**
   * Creates and removes a hidden file in the thumbnail directory, named like the kit's temporary
   * files so a probe left by a killed process is swept like them.
   */
  async mediaState(): Promise<DependencyState> {
    const probe = path.join(this.thumbsDir, `.ready-${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const up = await withinTime((async () => {
      try {
        await writeFile(probe, '', { flag: 'wx' });
        return true;
      } finally {
        await rm(probe, { force: true }).catch(() => undefined);
      }
    })(), this.timeoutMs);
    return up ? 'up' : 'down';
  }
}
