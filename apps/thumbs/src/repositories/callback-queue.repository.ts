import { THUMBNAIL_CALLBACK_QUEUE, thumbnailQueuePrefix, type ThumbnailCallbackDelivery } from '@pawlink/contracts';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { Queue } from 'bullmq';

export type CallbackQueue = Queue<ThumbnailCallbackDelivery>;

/**
 * The worker's queue of callback deliveries (THUMBNAIL_CALLBACK_QUEUE), opened by the API only for
 * the queue dashboard, where failed deliveries stay visible. `connection` stays open on close.
 */
export function openCallbackQueue(connection: RedisClient, redisPrefix: string): CallbackQueue {
  return new Queue<ThumbnailCallbackDelivery>(THUMBNAIL_CALLBACK_QUEUE, {
    connection,
    prefix: thumbnailQueuePrefix(redisPrefix),
  });
}
