import { thumbnailCallbacksKey, thumbnailJobId } from '@pawlink/contracts';
import { request } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5For, startThumbs, type ThumbsHarness } from './helpers.js';

/** A receiver's address on this machine that THUMBS_CALLBACK_PRIVATE_HOSTS lists (nothing needs to listen: the API only registers it). */
const RECEIVER = '127.0.0.1:47001';

let h: ThumbsHarness;
beforeAll(async () => {
  h = await startThumbs({ THUMBS_CALLBACK_PRIVATE_HOSTS: RECEIVER });
});
afterAll(async () => {
  await h?.close();
});

const put = (id: string, type: string, callbackURL: string) =>
  request(`${h.url}/${id}/${type}?callbackURL=${encodeURIComponent(callbackURL)}`, { method: 'PUT', headers: h.auth });
const registered = (md5: string, type: 'gif' | 'png') =>
  h.redis.hgetall(thumbnailCallbacksKey(h.ctx.redisPrefix, thumbnailJobId(md5, type)));

describe('PUT /:id/:type?callbackURL=', () => {
  it('registers each callback URL of a job once, with the key that asked', async () => {
    const md5 = md5For('callbacks-registered');
    const [first, second, again] = [
      await put(md5, 'gif', `http://${RECEIVER}/a`),
      await put(md5, 'gif', `http://${RECEIVER}/b`),
      await put(md5, 'gif', `http://${RECEIVER}/a`),
    ];
    expect([first.status, second.status, again.status]).toEqual([202, 202, 202]);
    const keyId = (await h.apiKeys.findByKey(h.key))!.id;
    // `<key id>:<Redis time in ms>`, the clock the queue's job ends are stamped with.
    expect(await registered(md5, 'gif')).toEqual({
      [`http://${RECEIVER}/a`]: expect.stringMatching(new RegExp(`^${keyId}:\\d{13}$`)),
      [`http://${RECEIVER}/b`]: expect.stringMatching(new RegExp(`^${keyId}:\\d{13}$`)),
    });
    expect(await h.queue.getJob(thumbnailJobId(md5, 'gif'))).toBeDefined();
  });

  it('registers nothing when the thumbnail already exists (200)', async () => {
    const md5 = md5For('callbacks-done');
    await h.writeThumbnail(md5, 'png');
    const res = await put(md5, 'png', `http://${RECEIVER}/done`);
    expect(res.status).toBe(200);
    expect(await registered(md5, 'png')).toEqual({});
  });

  it.each([
    ['a private address', 'http://10.1.2.3/hook'],
    ['loopback on a port not listed', 'http://127.0.0.1:47002/hook'],
    ['a name that resolves to loopback', 'http://localhost:47001/hook'],
    ['an IPv6 loopback', 'http://[::1]:47001/hook'],
    ['another scheme', 'ftp://example.com/hook'],
    ['no URL at all', 'hook'],
    ['more than 2048 characters', `https://example.com/${'a'.repeat(2040)}`],
  ])('refuses %s with 422 1085 and queues nothing', async (_what, callbackURL) => {
    const md5 = md5For(`callbacks-refused-${callbackURL}`);
    const res = await put(md5, 'gif', callbackURL);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 1085 });
    expect(await h.queue.getJob(thumbnailJobId(md5, 'gif'))).toBeUndefined();
    expect(await registered(md5, 'gif')).toEqual({});
  });
});
