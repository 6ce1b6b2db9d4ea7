import { THUMBNAIL_QUEUE } from '@pawlink/contracts';
import { Job, QueueEvents, type ConnectionOptions } from 'bullmq';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { ThumbnailQueue } from './thumbnail-queue.repository.js';

export interface JobDurationOptions {
  redisPrefix: string;
  /** How many recent durations make the average. */
  samples: number;
  /** Assumed until any job has finished. */
  defaultMs: number;
  /** The average is read from Redis at most this often per process. */
  cacheMs?: number;
}

/**
 * Recent job durations in the Redis list `<prefix>thumbs:durations`, newest first, shared by
 * every API instance. When the list is empty (fresh Redis) the queue's kept completed jobs are
 * used, then the configured default.
 */
export class JobDurationRepository {
  private cached: { value: number; at: number } | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly queue: ThumbnailQueue,
    private readonly options: JobDurationOptions,
  ) {}

  get key(): string {
    return `${this.options.redisPrefix}thumbs:durations`;
  }

  /** Records one finished job once, however many instances saw it finish. */
  async record(jobId: string, finishedOn: number, durationMs: number): Promise<boolean> {
    if (!(durationMs >= 0)) return false;
    const seen = await this.redis.set(
      `${this.options.redisPrefix}thumbs:durations:seen:${jobId}:${finishedOn}`,
      '1',
      'EX',
      3600,
      'NX',
    );
    if (seen !== 'OK') return false;
    await this.redis
      .multi()
      .lpush(this.key, String(Math.round(durationMs)))
      .ltrim(this.key, 0, this.options.samples - 1)
      .exec();
    this.cached = undefined;
    return true;
  }

  async averageMs(): Promise<number> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < (this.options.cacheMs ?? 2000)) return this.cached.value;
    let samples = (await this.redis.lrange(this.key, 0, this.options.samples - 1))
      .map(Number)
      .filter((n) => Number.isFinite(n) && n >= 0);
    if (samples.length === 0) samples = await this.fromCompletedJobs();
    const value =
      samples.length === 0 ? this.options.defaultMs : Math.round(samples.reduce((a, b) => a + b, 0) / samples.length);
    this.cached = { value, at: now };
    return value;
  }

  private async fromCompletedJobs(): Promise<number[]> {
    const jobs = await this.queue.getCompleted(0, this.options.samples - 1);
    return jobs.flatMap((job) => (job.finishedOn && job.processedOn ? [job.finishedOn - job.processedOn] : []));
  }
}

/** The queue's events that move jobs into, out of or within the wait list. */
const WAIT_LIST_EVENTS = ['waiting', 'active', 'removed', 'cleaned'] as const;

/**
 * Listens for completed jobs (from any worker) and records their durations; on the same events
 * stream, tells `onWaitListChange` when a job enters or leaves the wait list (the snapshot of the
 * check's estimate, ThumbnailQueueRepository.queueChanged). Needs its own blocking Redis
 * connection; close it on shutdown.
 */
export function startDurationRecorder(options: {
  connection: ConnectionOptions;
  queuePrefix: string;
  queue: ThumbnailQueue;
  durations: JobDurationRepository;
  onError: (error: unknown) => void;
  onWaitListChange?: () => void;
}): QueueEvents {
  const events = new QueueEvents(THUMBNAIL_QUEUE, { connection: options.connection, prefix: options.queuePrefix });
  events.on('completed', ({ jobId }) => {
    void (async () => {
      const job = await Job.fromId(options.queue, jobId);
      if (job?.finishedOn && job.processedOn)
        await options.durations.record(jobId, job.finishedOn, job.finishedOn - job.processedOn);
    })().catch(options.onError);
  });
  const { onWaitListChange } = options;
  if (onWaitListChange) for (const event of WAIT_LIST_EVENTS) events.on(event, () => onWaitListChange());
  events.on('error', options.onError);
  return events;
}

export type DurationRecorderOptions = Omit<Parameters<typeof startDurationRecorder>[0], 'connection'> & {
  /** Opens the recorder's own blocking connection (made for BullMQ) when it starts; whoever gives it closes it. */
  connect: () => ConnectionOptions;
};

/** `startDurationRecorder` as the container builds it: started and closed by main.ts. */
export class JobDurationRecorder {
  private events: QueueEvents | undefined;

  constructor(private readonly options: DurationRecorderOptions) {}

  start(): void {
    this.events ??= startDurationRecorder({ ...this.options, connection: this.options.connect() });
  }

  async close(): Promise<void> {
    await this.events?.close();
  }
}
