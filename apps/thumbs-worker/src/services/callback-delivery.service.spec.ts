import { createHmac } from 'node:crypto';
import type { ThumbnailCallbackDelivery } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import { CallbackRejectedError, WebhookSecretMissingError } from './callback.errors.js';
import { CallbackDeliveryService } from './callback-delivery.service.js';

const delivery: ThumbnailCallbackDelivery = {
  callbackURL: 'https://bot.example/hook',
  apiKeyId: 3,
  payload: {
    event: 'thumbnail.done',
    md5: 'd41d8cd98f00b204e9800998ecf8427e',
    type: 'gif',
    url: 'http://media.test/thumbs/d41d8cd98f00b204e9800998ecf8427e.gif',
    code: null,
    error: null,
    at: 1,
  },
};

function world(status: number, secret: string | null = 'whsec_a') {
  const sent: Array<{ url: string; body: string; headers: Record<string, string> }> = [];
  let now = 1_700_000_000_500;
  const service = new CallbackDeliveryService({
    secrets: { current: () => Promise.resolve(secret) },
    sender: { post: (url, body, headers) => (sent.push({ url, body, headers }), Promise.resolve(status)) },
    clock: () => now,
  });
  return { service, sent, tick: (ms: number) => (now += ms) };
}

describe('CallbackDeliveryService', () => {
  it('POSTs the payload as JSON, signed over "<t>.<body>", afresh each attempt', async () => {
    const { service, sent, tick } = world(204);
    expect(await service.attempt(delivery)).toBe(204);
    tick(10_000);
    await service.attempt(delivery);
    const [first, second] = sent;
    expect(first!.url).toBe(delivery.callbackURL);
    expect(JSON.parse(first!.body)).toEqual(delivery.payload);
    expect(first!.headers['Content-Type']).toBe('application/json');
    const hmac = createHmac('sha256', 'whsec_a').update(`1700000000.${first!.body}`).digest('hex');
    expect(first!.headers['X-Pawlink-Signature']).toBe(`t=1700000000,v1=${hmac}`);
    expect(second!.headers['X-Pawlink-Signature']).toMatch(/^t=1700000010,v1=[0-9a-f]{64}$/);
  });

  it('fails an attempt answered with anything but a 2xx', async () => {
    await expect(world(302).service.attempt(delivery)).rejects.toBeInstanceOf(CallbackRejectedError);
    await expect(world(500).service.attempt(delivery)).rejects.toMatchObject({ status: 500 });
  });

  it('sends nothing unsigned: a key without a secret fails the attempt', async () => {
    const { service, sent } = world(200, null);
    await expect(service.attempt(delivery)).rejects.toBeInstanceOf(WebhookSecretMissingError);
    expect(sent).toEqual([]);
  });
});
