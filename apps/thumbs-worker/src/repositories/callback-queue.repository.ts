import { createHash } from 'node:crypto';
import {
  THUMBNAIL_CALLBACK_JOB,
  THUMBNAIL_CALLBACK_QUEUE,
  thumbnailCallbackEventId,
  thumbnailQueuePrefix,
  type ThumbnailCallbackDelivery,
} from '@pawlink/contracts';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { telemetryHooks } from '@pawlink/service-kit/telemetry-hooks';
import { Queue } from 'bullmq';

export type CallbackQueue = Queue<ThumbnailCallbackDelivery>;

/** The custom backoff's name: the delivery worker computes each delay from the first attempt. */
export const CALLBACK_BACKOFF = 'callback-schedule';

/** Delivered callbacks are kept this long, so seeing the same job end again queues nothing twice. */
const KEEP_DELIVERED_SECONDS = 86_400;

export interface CallbackQueuePolicy {
  attempts: number;
  keepFailedSeconds: number;
}

/** The durable queue of deliveries (THUMBNAIL_CALLBACK_QUEUE), next to the thumbnail queue under the same `{bull}` prefix. */
export function openCallbackQueue(connection: RedisClient, redisPrefix: string): CallbackQueue {
  return new Queue<ThumbnailCallbackDelivery>(THUMBNAIL_CALLBACK_QUEUE, {
    connection,
    prefix: thumbnailQueuePrefix(redisPrefix),
    // With traces on, a delivery carries the trace context it was queued in (its thumbnail job's).
    telemetry: telemetryHooks()?.bullmq,
  });
}

/**
 * One delivery per (job end, URL): the id is made of the thumbnail job, the end event's id and a
 * hash of the URL (BullMQ ids may not contain ':'), so whoever sees the end again adds nothing new.
 */
export const callbackDeliveryId = (thumbnailJobId: string, endEventId: string, callbackURL: string): string =>
  `${thumbnailJobId}.${endEventId}.${createHash('sha256').update(callbackURL).digest('hex').slice(0, 24)}`;

/**
 * The `webhook-id` of a delivery queued before deliveries carried it, read back from its id
 * (`callbackDeliveryId`): the same every attempt, as if it had been queued with it.
 */
export function webhookIdOfDeliveryId(deliveryId: string): string | undefined {
  const match = /^([0-9a-f]{32}\.[a-z0-9]+)\.(\d+-\d+)\.[0-9a-f]{24}$/.exec(deliveryId);
  return match ? thumbnailCallbackEventId(match[1]!, match[2]!) : undefined;
}

/** Adds deliveries to the callback queue. */
export class CallbackQueueRepository {
  constructor(
    private readonly queue: CallbackQueue,
    private readonly policy: CallbackQueuePolicy,
  ) {}

  async enqueue(deliveries: ReadonlyArray<{ id: string; delivery: ThumbnailCallbackDelivery }>): Promise<void> {
    if (deliveries.length === 0) return;
    await this.queue.addBulk(
      deliveries.map(({ id, delivery }) => ({
        name: THUMBNAIL_CALLBACK_JOB,
        data: delivery,
        opts: {
          jobId: id,
          attempts: this.policy.attempts,
          backoff: { type: CALLBACK_BACKOFF },
          removeOnComplete: { age: KEEP_DELIVERED_SECONDS },
          removeOnFail: { age: this.policy.keepFailedSeconds },
        },
      })),
    );
  }
}
