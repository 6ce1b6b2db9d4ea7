import { thumbnailCallbackEventId } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import { callbackDeliveryId, webhookIdOfDeliveryId } from './callback-queue.repository.js';

describe('webhookIdOfDeliveryId', () => {
  it('reads back the webhook-id a delivery of that job end carries', () => {
    const jobId = 'd41d8cd98f00b204e9800998ecf8427e.webp';
    const id = callbackDeliveryId(jobId, '1700000000000-2', 'https://bot.example/hook');
    expect(webhookIdOfDeliveryId(id)).toBe(thumbnailCallbackEventId(jobId, '1700000000000-2'));
    expect(webhookIdOfDeliveryId('not-a-delivery')).toBeUndefined();
  });
});
