import { thumbnailCallbackEventId } from '@pawlink/contracts';
import type { CallbackQueueRepository } from '../repositories/callback-queue.repository.js';
import { callbackDeliveryId } from '../repositories/callback-queue.repository.js';
import type { CallbackRegistrationRepository } from '../repositories/callback-registration.repository.js';
import { callbackEventOf, type ThumbnailJobEnd } from '../domain/callback-event.rules.js';

export interface CallbackDispatchDeps {
  registrations: Pick<CallbackRegistrationRepository, 'registered' | 'forget'>;
  deliveries: Pick<CallbackQueueRepository, 'enqueue'>;
  /** MEDIA_URL, for the done event's `url`. */
  mediaUrl: string;
}

/**
 * When a thumbnail job ends: one delivery per URL registered for it before that end, queued
 * durably, then those registrations forgotten (one made later waits for the next job's end).
 * Seeing the same end twice (two watchers, a restart) queues nothing new: each delivery's id is
 * made of the end event's id and its URL. Every delivery of one end carries the same `webhook-id`.
 */
export class CallbackDispatchService {
  constructor(private readonly deps: CallbackDispatchDeps) {}

  /** How many deliveries the end of `jobId` (event `endEventId`, `<unix ms>-<seq>`) queued. */
  async jobEnded(jobId: string, end: ThumbnailJobEnd, endEventId: string): Promise<number> {
    const { registrations, deliveries, mediaUrl } = this.deps;
    const endedAt = Number(endEventId.split('-')[0]);
    const registered = (await registrations.registered(jobId)).filter((entry) => entry.registeredAt <= endedAt);
    if (registered.length === 0) return 0;
    const payload = callbackEventOf(jobId, end, endedAt, mediaUrl);
    if (!payload) return 0;
    const webhookId = thumbnailCallbackEventId(jobId, endEventId);
    await deliveries.enqueue(
      registered.map(({ callbackURL, apiKeyId, registeredAt }) => ({
        id: callbackDeliveryId(jobId, endEventId, callbackURL),
        delivery: { callbackURL, apiKeyId, payload, webhookId, registeredAt },
      })),
    );
    await registrations.forget(jobId, registered);
    return registered.length;
  }
}
