import { THUMBNAIL_QUEUE, thumbnailQueuePrefix } from '@pawlink/contracts';
import type { Logger } from '@pawlink/service-kit/logger';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { telemetryHooks } from '@pawlink/service-kit/telemetry-hooks';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { JobEndCursorRepository } from '../repositories/job-end-cursor.repository.js';
import type { ThumbnailJobEnd } from '../domain/callback-event.rules.js';
import type { CallbackDispatchService } from '../services/callback-dispatch.service.js';
import { isConnectionError } from './thumbnail-queue-errors.worker.js';

/** Watches thumbnail jobs end; `close()` stops watching once the event in hand is handled. */
export interface ThumbnailEndWatcher {
  close(): Promise<void>;
  /** Resolves when every event seen so far is handled (tests). */
  idle(): Promise<void>;
}

/**
 * Reads the thumbnail queue's event stream, where BullMQ writes a job's final completion or
 * failure whoever ended it (a worker, a timeout, a stall past its limit), and hands each end to
 * the dispatch service, one at a time, in order. The shared cursor moves past an event once it is
 * handled, and a (re)started watcher reads on from the cursor: an end seen by none of the
 * watchers because they were down is handled when one comes back (within the stream's length,
 * BullMQ's 10 000 events by default). `connection` is blocking, made
 * for BullMQ, and used by nothing else.
 */
export async function startThumbnailEndWatcher(options: {
  connection: RedisClient;
  redisPrefix: string;
  cursor: Pick<JobEndCursorRepository, 'read' | 'advance'>;
  dispatch: Pick<CallbackDispatchService, 'jobEnded'>;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** With traces on: the trace context a job carries (its opts' telemetry metadata), if any. */
  traceContextOf?: (jobId: string) => Promise<string | undefined>;
}): Promise<ThumbnailEndWatcher> {
  const { cursor, dispatch, logger, traceContextOf } = options;
  /** The end's callbacks are queued in the job's trace, when it has one: their deliveries carry it on. */
  const dispatched = async (jobId: string, end: ThumbnailJobEnd, eventId: string): Promise<unknown> => {
    const telemetry = telemetryHooks();
    const parent = telemetry && traceContextOf ? await traceContextOf(jobId).catch(() => undefined) : undefined;
    const work = () => dispatch.jobEnded(jobId, end, eventId);
    if (!telemetry || parent === undefined) return work();
    return telemetry.inSpan('dispatch callbacks', work, {
      parent,
      attributes: { 'messaging.message.id': jobId, 'pawlink.thumbnail.end': end.kind },
    });
  };
  // The first watcher ever reads the stream (as far as BullMQ keeps it) from its start: ends older
  // than a registration never fire it, so nothing is sent twice or early.
  const lastEventId = (await cursor.read()) ?? '0-0';
  const events = new QueueEvents(THUMBNAIL_QUEUE, {
    connection: options.connection,
    prefix: thumbnailQueuePrefix(options.redisPrefix),
    lastEventId,
  });
  let chain: Promise<void> = Promise.resolve();
  const handle = (jobId: string, end: ThumbnailJobEnd, eventId: string): void => {
    chain = chain.then(async () => {
      try {
        await dispatched(jobId, end, eventId);
        await cursor.advance(eventId);
      } catch (error) {
        // Not advanced: the next watcher to start reads this end again.
        logger.error('could not queue the callbacks of a thumbnail job', { jobId, eventId, error });
      }
    });
  };
  events.on('completed', ({ jobId }, eventId) => handle(jobId, { kind: 'completed' }, eventId));
  events.on('failed', ({ jobId, failedReason }, eventId) => handle(jobId, { kind: 'failed', failedReason }, eventId));
  // A lost connection is logged by the connection itself, once per change of state.
  events.on('error', (error) => {
    if (!isConnectionError(error)) logger.warn('thumbnail end watcher error', { error: error.message });
  });
  await events.waitUntilReady();
  return {
    idle: () => chain,
    async close() {
      await events.close();
      await chain;
    },
  };
}

/**
 * Reads the trace context a thumbnail job was queued with (`opts.telemetry.metadata`, written by
 * BullMQ's telemetry when the API's traces are on); for the watcher when this process's are on.
 */
export function jobTraceContextReader(
  connection: RedisClient,
  redisPrefix: string,
): { read(jobId: string): Promise<string | undefined>; close(): Promise<void> } {
  const queue = new Queue(THUMBNAIL_QUEUE, { connection, prefix: thumbnailQueuePrefix(redisPrefix) });
  return {
    read: async (jobId) => (await Job.fromId(queue, jobId))?.opts.telemetry?.metadata,
    close: () => queue.close(),
  };
}
