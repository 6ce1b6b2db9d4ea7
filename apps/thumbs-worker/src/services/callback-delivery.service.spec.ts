import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import {
  CallbackDisabledError,
  CallbackGoneError,
  CallbackRejectedError,
  WebhookSecretMissingError,
} from '../domain/callback.errors.js';
import { CallbackDeliveryService, type CallbackAttempt } from './callback-delivery.service.js';

const WEBHOOK_ID = 'evt_d41d8cd98f00b204e9800998ecf8427e_gif_1700000000000-0';
const delivery: CallbackAttempt = {
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
  webhookId: WEBHOOK_ID,
  registeredAt: 1_699_999_999_000,
};

const standardSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

interface Sent {
  url: string;
  body: string;
  headers: Record<string, string>;
}

function world(
  status: number,
  signing: { current: string; previous: string[] } | null = { current: standardSecret(), previous: [] },
) {
  const sent: Sent[] = [];
  const marks: Array<[number, string]> = [];
  const gone = new Map<string, number>();
  // The receiver's clock is the real one: the libraries check the timestamp against it.
  let now = Date.now();
  const service = new CallbackDeliveryService({
    secrets: { signing: () => Promise.resolve(signing) },
    sender: { post: (url, body, headers) => (sent.push({ url, body, headers }), Promise.resolve(status)) },
    gone: {
      mark: (apiKeyId, url) => (marks.push([apiKeyId, url]), gone.set(`${apiKeyId} ${url}`, now), Promise.resolve(now)),
      since: (apiKeyId, url) => Promise.resolve(gone.get(`${apiKeyId} ${url}`) ?? null),
    },
    clock: () => now,
  });
  return { service, sent, marks, gone, tick: (ms: number) => (now += ms) };
}

describe('CallbackDeliveryService', () => {
  it('POSTs the payload as JSON with the Standard Webhooks headers, which the standardwebhooks and svix libraries verify', async () => {
    const secret = standardSecret();
    const { service, sent } = world(204, { current: secret, previous: [] });
    expect(await service.attempt(delivery)).toBe(204);
    const [call] = sent;
    expect(call!.url).toBe(delivery.callbackURL);
    expect(JSON.parse(call!.body)).toEqual(delivery.payload);
    expect(call!.headers['Content-Type']).toBe('application/json');
    expect(call!.headers['webhook-id']).toBe(WEBHOOK_ID);
    expect(call!.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(call!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(call!.body, call!.headers)).toEqual(delivery.payload);
    expect(() => new SvixWebhook(secret).verify(call!.body, call!.headers)).not.toThrow();
    expect(() => new Webhook(standardSecret()).verify(call!.body, call!.headers)).toThrow('No matching signature');
  });

  it('keeps X-Pawlink-Signature as before: hex HMAC of "<t>.<body>" keyed with the secret text, t the same second', async () => {
    const secret = standardSecret();
    const { service, sent, tick } = world(204, { current: secret, previous: [] });
    await service.attempt(delivery);
    tick(10_000);
    await service.attempt(delivery);
    const [first, second] = sent;
    const t = first!.headers['webhook-timestamp'];
    const hmac = createHmac('sha256', secret).update(`${t}.${first!.body}`).digest('hex');
    expect(first!.headers['X-Pawlink-Signature']).toBe(`t=${t},v1=${hmac}`);
    // Each attempt is signed afresh; the event's id stays.
    expect(Number(second!.headers['webhook-timestamp'])).toBe(Number(t) + 10);
    expect(second!.headers['webhook-id']).toBe(WEBHOOK_ID);
    expect(second!.headers['X-Pawlink-Signature']).toMatch(new RegExp(`^t=${Number(t) + 10},v1=[0-9a-f]{64}$`));
  });

  it('signs with the bytes of a secret made before the standard form (base64url): the libraries verify it re-encoded as base64', async () => {
    const bytes = randomBytes(32);
    const legacy = `whsec_${bytes.toString('base64url')}`;
    const { service, sent } = world(200, { current: legacy, previous: [] });
    await service.attempt(delivery);
    const [call] = sent;
    const reencoded = `whsec_${bytes.toString('base64')}`;
    expect(new Webhook(reencoded).verify(call!.body, call!.headers)).toEqual(delivery.payload);
    expect(() => new SvixWebhook(reencoded).verify(call!.body, call!.headers)).not.toThrow();
    // The legacy header still verifies with the secret as the integrator has it.
    const t = call!.headers['webhook-timestamp'];
    expect(call!.headers['X-Pawlink-Signature']).toBe(
      `t=${t},v1=${createHmac('sha256', legacy).update(`${t}.${call!.body}`).digest('hex')}`,
    );
  });

  it('during a rotation that keeps the previous secret, sends two signatures: either secret verifies', async () => {
    const [current, previous] = [standardSecret(), standardSecret()];
    const { service, sent } = world(200, { current, previous: [previous] });
    await service.attempt(delivery);
    const [call] = sent;
    expect(call!.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(call!.body, call!.headers)).toEqual(delivery.payload);
      expect(() => new SvixWebhook(secret).verify(call!.body, call!.headers)).not.toThrow();
    }
    // The legacy header: the current secret only.
    const t = call!.headers['webhook-timestamp'];
    expect(call!.headers['X-Pawlink-Signature']).toBe(
      `t=${t},v1=${createHmac('sha256', current).update(`${t}.${call!.body}`).digest('hex')}`,
    );
  });

  it('fails an attempt answered with anything but a 2xx', async () => {
    await expect(world(302).service.attempt(delivery)).rejects.toBeInstanceOf(CallbackRejectedError);
    await expect(world(500).service.attempt(delivery)).rejects.toMatchObject({ status: 500 });
  });

  it('ends on a 410 and marks the URL gone for the key; a delivery registered before the 410 is then dropped unsent', async () => {
    const { service, sent, marks, tick } = world(410);
    await expect(service.attempt(delivery)).rejects.toBeInstanceOf(CallbackGoneError);
    expect(marks).toEqual([[3, delivery.callbackURL]]);
    tick(1000);
    await expect(service.attempt({ ...delivery, webhookId: 'evt_other' })).rejects.toBeInstanceOf(
      CallbackDisabledError,
    );
    expect(sent).toHaveLength(1);
  });

  it('sends a delivery registered after the 410 (the integrator asked again), and one to another URL or key', async () => {
    const { service, sent, gone } = world(200);
    gone.set(`3 ${delivery.callbackURL}`, delivery.registeredAt + 5);
    await expect(service.attempt(delivery)).rejects.toBeInstanceOf(CallbackDisabledError);
    expect(await service.attempt({ ...delivery, registeredAt: delivery.registeredAt + 6 })).toBe(200);
    expect(await service.attempt({ ...delivery, callbackURL: 'https://bot.example/other' })).toBe(200);
    expect(await service.attempt({ ...delivery, apiKeyId: 4 })).toBe(200);
    expect(sent).toHaveLength(3);
  });

  it('sends nothing unsigned: a key without a secret fails the attempt', async () => {
    const { service, sent } = world(200, null);
    await expect(service.attempt(delivery)).rejects.toBeInstanceOf(WebhookSecretMissingError);
    expect(sent).toEqual([]);
  });
});
