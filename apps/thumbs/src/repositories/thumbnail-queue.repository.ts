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
import type {
  JobPhase,
  JobPolicy,
  JobRead,
  JobSnapshot,
  QueueLengths,
  QueueLoad,
} from '../domain/thumbnail-state.rules.js';
import { jobReader, READ_JOB_KEYS, type ReadJobAnswer } from './read-job-script.repository.js';
import { WaitListSnapshot } from './wait-list-snapshot.repository.js';

export interface ThumbnailQueueOptions {
  redisPrefix: string;
  /** Worker count is a CLIENT LIST scan; cached this long. */
  workerCountTtlMs?: number;
  /** How old the view of the wait list that places a job in it may be (docs/api.md, `time`). */
  waitListMaxAgeMs?: number;
  /** The wait list's front this long at most is read into that view; a job further back counts every waiting job ahead. */
  waitListMaxIds?: number;
  /** Unix ms now, for the age of that view; tests move it. */
  clock?: () => number;
}

/** docs/api.md: `time` may be estimated from a view of the queue this old. */
export const WAIT_LIST_MAX_AGE_MS = 250;
/** After a queue event, the view is read again once it is this old. */
const WAIT_LIST_MIN_AGE_MS = 50;
const WAIT_LIST_MAX_IDS = 10_000;

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
  /** Where each waiting job stands in the wait list, as of at most `waitListMaxAgeMs` ago. */
  private readonly waitList: WaitListSnapshot;

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
    const waitKey = queue.toKey('wait');
    const maxIds = options.waitListMaxIds ?? WAIT_LIST_MAX_IDS;
    // Workers take jobs from the right end of the wait list, new jobs are pushed on the left.
    this.waitList = new WaitListSnapshot(() => redis.lrange(waitKey, -maxIds, -1), {
      maxAgeMs: options.waitListMaxAgeMs ?? WAIT_LIST_MAX_AGE_MS,
      minAgeMs: Math.min(WAIT_LIST_MIN_AGE_MS, options.waitListMaxAgeMs ?? WAIT_LIST_MAX_AGE_MS),
      clock: options.clock ?? Date.now,
    });
  }

  /** The job and the queue's lengths, read together; `load()` takes what this answers. */
  async find(md5: string, type: ThumbnailType): Promise<JobRead | null> {
    return this.read(thumbnailJobId(md5, type));
  }

  /**
   * The job as stored, its state and the queue's lengths in one script: one round trip, one
   * atomic view (read separately, a job failing between the state and the data looked failed
   * without finishedOn).
   */
  private async read(jobId: string): Promise<JobRead | null> {
    const { state, active, waiting, prioritized, hash } = await this.readJob(
      this.readJobQueueKeys,
      this.queue.toKey(jobId),
      jobId,
    );
    const phase = PHASES[state];
    if (hash.size === 0 || !phase) return null;
    await this.linkToQueuedJob(jobId);
    return { job: snapshotOfHash(jobId, phase, hash), queue: { active, waiting: waiting + prioritized } };
  }

  /**
   * With traces on, the request reading the job (a check, a repeated PUT) links to the job's
   * trace. The job's options are read for it only then: the check's script reads no more than the
   * answer needs.
   */
  private async linkToQueuedJob(jobId: string): Promise<void> {
    const telemetry = telemetryHooks();
    if (!telemetry) return;
    const opts = await this.redis.hget(this.queue.toKey(jobId), 'opts');
    telemetry.linkToQueuedJob(Job.optsFromJSON(opts ?? undefined).telemetry?.metadata);
  }

  /** The queue changed (a job added, taken, finished or removed, seen by the queue's events): places are read again. */
  queueChanged(): void {
    this.waitList.invalidate();
  }

  /**
   * Adds the job unless one with its id exists; either way answers the job that is there. BullMQ
   * answers an add of an existing id with a Job built from this call's arguments (its own
   * timestamp), so the stored job is read back: every caller then sees the one queued time.
   */
  async enqueue(payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobRead> {
    const job = await this.queue.add(THUMBNAIL_JOB, payload, jobOptions(payload, policy));
    this.waitList.invalidate();
    const read = await this.read(job.id ?? thumbnailJobId(payload.md5, payload.type));
    // A job removed between add() and getState() reads as unknown; the next request sees the truth.
    return read ?? { job: this.fallbackSnapshot(job), queue: null };
  }

  /**
   * Replaces a finished job (an expired failure, or a completion whose file is gone) with a new
   * attempt. Under a short Redis lock the job is read again and only removed when it is still the
   * same finished job, so instances racing on one stale job make exactly one new attempt.
   */
  async replace(stale: JobSnapshot, payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobRead> {
    const lockKey = `${this.options.redisPrefix}thumbs:replace:${stale.id}`;
    for (let attempt = 0; attempt < 50; attempt++) {
      const token = `${process.pid}:${Math.random()}`;
      if ((await this.redis.set(lockKey, token, 'PX', REPLACE_LOCK_MS, 'NX')) === 'OK') {
        try {
          const current = await this.read(stale.id);
          if (current && !isSameFinishedJob(current.job, stale)) return current;
          if (current) await this.queue.remove(stale.id);
          return await this.enqueue(payload, policy);
        } finally {
          await this.releaseLock(lockKey, token);
        }
      }
      await sleep(50);
    }
    // Another instance is still replacing it; whatever is there now is the answer.
    return (await this.find(payload.md5, payload.type)) ?? { job: stale, queue: null };
  }

  /**
   * Running jobs and waiting jobs in front of a job that `find()`, `enqueue()` or `replace()`
   * answered, and how many run side by side. The lengths are the ones read with the job; a
   * waiting job's place is from the wait list's snapshot, never more than the waiting jobs read
   * with it (a job not in the snapshot, queued since, is behind every waiting job).
   */
  async load({ job, queue: lengthsRead }: JobRead): Promise<QueueLoad> {
    const [queue, workers, waitingAheadSeen] = await Promise.all([
      lengthsRead ?? this.readLengths(),
      this.workerSlots(),
      job.phase === 'waiting' ? this.waitList.waitingAhead(job.id) : null,
    ]);
    const waitingAhead =
      job.phase === 'waiting' ? Math.min(waitingAheadSeen ?? Infinity, Math.max(0, queue.waiting - 1)) : queue.waiting;
    return {
      jobsAhead: job.phase === 'active' ? 0 : queue.active + waitingAhead,
      slots: Math.max(1, workers, queue.active),
    };
  }

  private async readLengths(): Promise<QueueLengths> {
    const counts = await this.queue.getJobCounts('active', 'waiting', 'prioritized');
    return { active: counts.active ?? 0, waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) };
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
