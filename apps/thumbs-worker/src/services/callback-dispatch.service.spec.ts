import { describe, expect, it } from 'vitest';
import type { CallbackRegistration } from '../repositories/callback-registration.repository.js';
import { CallbackDispatchService } from './callback-dispatch.service.js';

const MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
const registration = (callbackURL: string, apiKeyId: number, registeredAt = 1): CallbackRegistration => ({
  callbackURL,
  apiKeyId,
  registeredAt,
  stored: `${apiKeyId}:${registeredAt}`,
});

function world(registered: CallbackRegistration[]) {
  const queued = new Map<string, unknown>();
  const forgotten: CallbackRegistration[][] = [];
  const service = new CallbackDispatchService({
    registrations: {
      registered: () => Promise.resolve(registered),
      forget: (_jobId, entries) => (forgotten.push([...entries]), Promise.resolve()),
    },
    deliveries: {
      enqueue: (items) => {
        for (const item of items) if (!queued.has(item.id)) queued.set(item.id, item.delivery);
        return Promise.resolve();
      },
    },
    mediaUrl: 'http://media.test/thumbs',
  });
  return { service, queued, forgotten };
}

describe('CallbackDispatchService', () => {
  it('queues one delivery per registered URL, then forgets them', async () => {
    const registered = [registration('https://a.example/', 1), registration('https://b.example/', 2)];
    const { service, queued, forgotten } = world(registered);
    expect(await service.jobEnded(`${MD5}.gif`, { kind: 'completed' }, '1700000000000-0')).toBe(2);
    // One event, one webhook-id for every URL it goes to; each delivery knows when its URL was registered.
    const webhookId = `evt_${MD5}_gif_1700000000000-0`;
    expect([...queued.values()]).toEqual([
      {
        callbackURL: 'https://a.example/',
        apiKeyId: 1,
        payload: expect.objectContaining({ event: 'thumbnail.done', at: 1_700_000_000_000 }),
        webhookId,
        registeredAt: 1,
      },
      {
        callbackURL: 'https://b.example/',
        apiKeyId: 2,
        payload: expect.objectContaining({ event: 'thumbnail.done' }),
        webhookId,
        registeredAt: 1,
      },
    ]);
    expect(forgotten).toEqual([registered]);
  });

  it('queues nothing new when the same end is seen again', async () => {
    const { service, queued } = world([registration('https://a.example/', 1)]);
    await service.jobEnded(`${MD5}.gif`, { kind: 'failed', failedReason: 'x' }, '5-0');
    await service.jobEnded(`${MD5}.gif`, { kind: 'failed', failedReason: 'x' }, '5-0');
    expect(queued.size).toBe(1);
  });

  it('does nothing for a job nobody registered a callback for', async () => {
    const { service, queued, forgotten } = world([]);
    expect(await service.jobEnded(`${MD5}.gif`, { kind: 'completed' }, '5-0')).toBe(0);
    expect(queued.size).toBe(0);
    expect(forgotten).toEqual([]);
  });

  it("leaves a registration made after the end for the next job's end", async () => {
    const early = registration('https://a.example/', 1, 4);
    const late = registration('https://b.example/', 1, 6);
    const { service, queued, forgotten } = world([early, late]);
    expect(await service.jobEnded(`${MD5}.gif`, { kind: 'completed' }, '5-0')).toBe(1);
    expect([...queued.values()]).toEqual([expect.objectContaining({ callbackURL: 'https://a.example/' })]);
    expect(forgotten).toEqual([[early]]);
  });
});
