import { setTimeout as sleep } from 'node:timers/promises';
import {
  THUMBNAIL_JOB,
  THUMBNAIL_QUEUE,
  thumbnailJobId,
  thumbnailQueuePrefix,
  thumbnailWorkerSlots,
  type ThumbnailJobPayload,
  type ThumbnailType,
} from '@pawlink/contracts';
import { Job, Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { telemetryHooks } from '@pawlink/service-kit/telemetry-hooks';
import type { JobPhase, JobPolicy, JobSnapshot, QueueLoad } from '../domain/thumbnail-state.rules.js';
import { jobReader, READ_JOB_KEYS, type ReadJobAnswer } from './read-job-script.repository.js';

/** Queue lengths read together with a job. */
interface QueueSnapshot {
  active: number;
  waiting: number;
  /** Waiting jobs a worker takes before this one; null when the job is not in the wait list. */
  waitingAhead: number | null;
}

export interface ThumbnailQueueOptions {
  redisPrefix: string;
  /** Worker count is a CLIENT LIST scan; cached this long. */
  workerCountTtlMs?: number;
}

/** The states an operator sees counted by `queue status`. */
export const QUEUE_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed'] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

const PHASES: Record<string, JobPhase | undefined> = {
  waiting: 'waiting',
  prioritized: 'waiting',
  'waiting-children': 'waiting',
  delayed: 'delayed',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
};

const REPLACE_LOCK_MS = 5000;

export type ThumbnailQueue = Queue<ThumbnailJobPayload>;

/**
 * The BullMQ queue `THUMBNAIL_QUEUE` under `thumbnailQueuePrefix(REDIS_PREFIX)`, where the worker
 * takes its jobs. `connection` must be made for BullMQ (`createRedis(…, { forQueue: true })`) and
 * stays open when the queue is closed: whoever opened it closes it.
 */
export function openThumbnailQueue(connection: RedisClient, redisPrefix: string): ThumbnailQueue {
  return new Queue<ThumbnailJobPayload>(THUMBNAIL_QUEUE, {
    connection,
    prefix: thumbnailQueuePrefix(redisPrefix),
    // With traces on, a job carries the trace context of the request that queued it (docs/observability.md).
    telemetry: telemetryHooks()?.bullmq,
  });
}

/** A number field of a BullMQ job hash; null when absent or empty. */
function numberField(hash: ReadonlyMap<string, string>, name: string): number | null {
  const value = Number(hash.get(name) || NaN);
  return Number.isFinite(value) ? value : null;
}

/** The snapshot of a job from its stored hash (the fields BullMQ's Job.fromJSON reads for these). */
function snapshotOfHash(id: string, phase: JobPhase, hash: ReadonlyMap<string, string>): JobSnapshot {
  let progress: unknown = null;
  try {
    progress = JSON.parse(hash.get('progress') ?? '0');
  } catch {
    // A progress that is not JSON is no number.
  }
  return {
    id,
    phase,
    progress: typeof progress === 'number' ? Math.min(100, Math.max(0, Math.round(progress))) : null,
    queuedAt: numberField(hash, 'timestamp') ?? 0,
    processedOn: numberField(hash, 'processedOn') || null,
    finishedOn: numberField(hash, 'finishedOn') || null,
    failedReason: hash.get('failedReason') || null,
    delayMs: phase === 'delayed' ? (numberField(hash, 'delay') ?? 0) : null,
  };
}

/** The BullMQ side of thumbnails: one job per (md5, type), found and created by its jobId. */
export class ThumbnailQueueRepository {
  private workerSlotsSeen: { count: number; at: number } | undefined;
  /** The queue in front of each job this repository read, as read in the same script (load() needs no second read). */
  private readonly queueSeenWith = new WeakMap<JobSnapshot, QueueSnapshot>();

  /** READ_JOB_SCRIPT, sent by its SHA. */
  private readonly readJob: (queueKeys: readonly string[], jobKey: string, id: string) => Promise<ReadJobAnswer>;
  private readonly readJobQueueKeys: readonly string[];

  constructor(
    private readonly queue: ThumbnailQueue,
    private readonly redis: RedisClient,
    private readonly options: ThumbnailQueueOptions,
  ) {
    this.readJob = jobReader(redis);
    this.readJobQueueKeys = READ_JOB_KEYS.map((key) => queue.toKey(key));
  }

  async find(md5: string, type: ThumbnailType): Promise<JobSnapshot | null> {
    return this.read(thumbnailJobId(md5, type));
  }

  /**
   * The job as stored, its state and the queue in front of it in one script: one round trip, one
   * atomic view (read separately, a job failing between the state and the data looked failed
   * without finishedOn).
   */
  private async read(jobId: string): Promise<JobSnapshot | null> {
    const { state, waitIndex, active, waiting, prioritized, hash } = await this.readJob(
      this.readJobQueueKeys,
      this.queue.toKey(jobId),
      jobId,
    );
    const phase = PHASES[state];
    if (hash.size === 0 || !phase) return null;
    // With traces on, the request reading the job (a check, a repeated PUT) links to the job's trace.
    telemetryHooks()?.linkToQueuedJob(Job.optsFromJSON(hash.get('opts')).telemetry?.metadata);
    const snapshot = snapshotOfHash(jobId, phase, hash);
    this.queueSeenWith.set(snapshot, {
      active,
      waiting: waiting + prioritized,
      waitingAhead: waitIndex < 0 ? null : Math.max(0, waiting - 1 - waitIndex),
    });
    return snapshot;
  }

  /**
   * Adds the job unless one with its id exists; either way answers the job that is there. BullMQ
   * answers an add of an existing id with a Job built from this call's arguments (its own
   * timestamp), so the stored job is read back: every caller then sees the one queued time.
   */
  async enqueue(payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobSnapshot> {
    const job = await this.queue.add(THUMBNAIL_JOB, payload, jobOptions(payload, policy));
    const snapshot = await this.read(job.id ?? thumbnailJobId(payload.md5, payload.type));
    // A job removed between add() and getState() reads as unknown; the next request sees the truth.
    return snapshot ?? this.fallbackSnapshot(job);
  }

  /**
   * Replaces a finished job (an expired failure, or a completion whose file is gone) with a new
   * attempt. Under a short Redis lock the job is read again and only removed when it is still the
   * same finished job, so instances racing on one stale job make exactly one new attempt.
   */
  async replace(stale: JobSnapshot, payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobSnapshot> {
    const lockKey = `${this.options.redisPrefix}thumbs:replace:${stale.id}`;
    for (let attempt = 0; attempt < 50; attempt++) {
      const token = `${process.pid}:${Math.random()}`;
      if ((await this.redis.set(lockKey, token, 'PX', REPLACE_LOCK_MS, 'NX')) === 'OK') {
        try {
          const currentSnapshot = await this.read(stale.id);
          if (currentSnapshot && !isSameFinishedJob(currentSnapshot, stale)) return currentSnapshot;
          if (currentSnapshot) await this.queue.remove(stale.id);
          return await this.enqueue(payload, policy);
        } finally {
          await this.releaseLock(lockKey, token);
        }
      }
      await sleep(50);
    }
    // Another instance is still replacing it; whatever is there now is the answer.
    return (await this.find(payload.md5, payload.type)) ?? stale;
  }

  /** Running jobs and waiting jobs in front of this one, and how many run side by side. */
  async load(job: JobSnapshot): Promise<QueueLoad> {
    const [queue, workers] = await Promise.all([
      this.queueSeenWith.get(job) ?? this.readQueue(job),
      this.workerSlots(),
    ]);
    const waitingAhead =
      job.phase === 'active'
        ? 0
        : (queue.waitingAhead ?? (job.phase === 'waiting' ? Math.max(0, queue.waiting - 1) : queue.waiting));
    return {
      jobsAhead: job.phase === 'active' ? 0 : queue.active + waitingAhead,
      slots: Math.max(1, workers, queue.active),
    };
  }

  private async readQueue(job: JobSnapshot): Promise<QueueSnapshot> {
    const [counts, waitingAhead] = await Promise.all([
      this.queue.getJobCounts('active', 'waiting', 'prioritized'),
      job.phase === 'waiting' ? this.waitingAhead(job.id) : Promise.resolve(null),
    ]);
    return { active: counts.active ?? 0, waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), waitingAhead };
  }

  /** Jobs per state, for operators. */
  async countJobs(): Promise<Record<QueueState, number>> {
    const counts = await this.queue.getJobCounts(...QUEUE_STATES);
    return Object.fromEntries(QUEUE_STATES.map((state) => [state, counts[state] ?? 0])) as Record<QueueState, number>;
  }

  /** Worker processes connected to the queue (not their job slots). */
  async countWorkers(): Promise<number> {
    return this.queue.getWorkersCount();
  }

  /** Forgets failed jobs that finished at least `olderThanMs` ago; answers how many. */
  async removeFailed(olderThanMs: number): Promise<number> {
    return (await this.queue.clean(olderThanMs, 0, 'failed')).length;
  }

  private async waitingAhead(jobId: string): Promise<number | null> {
    // Workers take jobs from the right end of the wait list, new jobs are pushed on the left.
    const waitKey = this.queue.toKey('wait');
    const [index, length] = await Promise.all([this.redis.lpos(waitKey, jobId), this.redis.llen(waitKey)]);
    return index === null ? null : Math.max(0, length - 1 - index);
  }

  /** Jobs the connected workers run side by side: each announces its concurrency in its name. */
  private async workerSlots(): Promise<number> {
    const now = Date.now();
    if (this.workerSlotsSeen && now - this.workerSlotsSeen.at < (this.options.workerCountTtlMs ?? 3000))
      return this.workerSlotsSeen.count;
    const workers = await this.queue.getWorkers().catch(() => []);
    const count = workers.reduce((sum, worker) => sum + thumbnailWorkerSlots(String(worker.rawname ?? '')), 0);
    this.workerSlotsSeen = { count, at: now };
    return count;
  }

  private fallbackSnapshot(job: Job<ThumbnailJobPayload>): JobSnapshot {
    return {
      id: job.id ?? '',
      phase: 'waiting',
      progress: null,
      queuedAt: job.timestamp,
      processedOn: null,
      finishedOn: null,
      failedReason: null,
      delayMs: null,
    };
  }

  private async releaseLock(key: string, token: string): Promise<void> {
    await this.redis.eval(
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
      1,
      key,
      token,
    );
  }
}

function jobOptions(payload: ThumbnailJobPayload, policy: JobPolicy): JobsOptions {
  return {
    jobId: thumbnailJobId(payload.md5, payload.type),
    attempts: policy.attempts,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: { age: policy.keepCompletedSeconds },
    removeOnFail: { age: policy.keepFailedSeconds },
  };
}

function isSameFinishedJob(current: JobSnapshot, stale: JobSnapshot): boolean {
  return current.phase === stale.phase && current.finishedOn === stale.finishedOn;
}
