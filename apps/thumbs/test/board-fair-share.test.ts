import { request, type JsonResponse } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThumbs, type ThumbsHarness } from './helpers.js';

/*
 * The board budget at its production rate (2 requests/s) and the API's 3 s wait: a burst of post
 * ids from one key, or from one IP with many keys, must not leave others without a slot. Every
 * answer is a contract answer: 200, 404 1062, 429 1069 (a share in use) or 503 1067 (the budget
 * booked by others), each with Retry-After, never a 500.
 */

let h: ThumbsHarness;
let nextRandomId = 500_000;

beforeAll(async () => {
  h = await startThumbs({
    BOARD_REQUESTS_PER_SECOND: '2',
    THUMBS_BOARD_MAX_WAIT_MS: '3000',
    THUMBS_BOARD_SHARE_PER_KEY: '2',
    THUMBS_BOARD_SHARE_PER_IP: '4',
    // X-Forwarded-For names the client, so one test process can be many IPs
    TRUST_PROXY: '1',
  });
});

afterAll(async () => {
  await h?.close();
});

const lookup = (id: number, key: string, ip: string): Promise<JsonResponse> =>
  request(`${h.url}/${id}`, { headers: { authorization: key, 'x-forwarded-for': ip } });

/** PUT resolves a post id the same way, against the same shares. */
const queue = (id: number, key: string, ip: string): Promise<JsonResponse> =>
  request(`${h.url}/${id}/gif`, { method: 'PUT', headers: { authorization: key, 'x-forwarded-for': ip } });

/** Fires `count` lookups (GET and PUT) of post ids the board does not have; resolves when `settled` of them have answered. */
function burst(
  count: number,
  key: () => string,
  ip: string,
  settled: number,
): { all: Promise<JsonResponse[]>; enough: Promise<void> } {
  let answered = 0;
  let markEnough: () => void = () => undefined;
  const enough = new Promise<void>((resolve) => {
    markEnough = resolve;
  });
  const all = Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await (i % 2 === 0 ? lookup : queue)(nextRandomId++, key(), ip);
      if (++answered >= settled) markEnough();
      return res;
    }),
  );
  return { all, enough };
}

function expectContractAnswers(answers: JsonResponse[]): void {
  for (const res of answers) {
    expect([404, 429, 503], JSON.stringify(res.body)).toContain(res.status);
    if (res.status === 404) expect(res.body).toMatchObject({ success: false, code: 1062 });
    else if (res.status === 429) {
      expect(res.body).toEqual({
        success: false,
        code: 1069,
        error: 'You are using your share of the image board budget; try again after Retry-After seconds.',
      });
      // Seconds until the earliest slot the requester holds has passed: within the 3 s a request waits at most.
      expect(res.headers.get('retry-after')).toMatch(/^[1-4]$/);
    } else {
      expect(res.body).toEqual({
        success: false,
        code: 1067,
        error: 'The image board cannot be reached right now; try again later.',
      });
      expect(res.headers.get('retry-after')).toBe('5');
    }
  }
}

describe('board budget fair share', () => {
  it("30 random post ids from key A cannot make key B's lookup of an existing post fail", async () => {
    const [keyA, keyB] = await Promise.all([h.newKey(['thumbs']), h.newKey(['thumbs'])]);
    const post = h.board.addPost({ id: 77_001, ext: 'png' }, Buffer.from('fair share post'));
    // A's refusals answer at once; once most have, A holds all it may of the budget (without a
    // share: every slot of the 3 s window).
    const fromA = burst(30, () => keyA, '203.0.113.10', 20);
    await fromA.enough;
    const fromB = await lookup(post.id, keyB, '203.0.113.10');
    expect(fromB.status, JSON.stringify(fromB.body)).toBe(200);
    expect(fromB.body).toEqual({
      success: true,
      gifURL: null,
      pngURL: null,
      webpURL: null,
      mp4URL: null,
      thumbhash: null,
    });

    const answers = await fromA.all;
    expectContractAnswers(answers);
    // A was refused for most of its burst, for its own share (429 1069), not because the board is down: it may hold only two slots at a time
    expect(answers.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(20);
  }, 30_000);

  it("many keys behind one IP share that IP's part of the budget, and a client at another IP still gets a slot", async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, () => h.newKey(['thumbs'])));
    const other = await h.newKey(['thumbs']);
    const post = h.board.addPost({ id: 77_002, ext: 'png' }, Buffer.from('fair share post, other IP'));
    let turn = 0;
    const fromOneIp = burst(30, () => keys[turn++ % keys.length]!, '198.51.100.20', 15);
    await fromOneIp.enough;
    const fromOther = await lookup(post.id, other, '192.0.2.30');
    expect(fromOther.status, JSON.stringify(fromOther.body)).toBe(200);
    const answers = await fromOneIp.all;
    expectContractAnswers(answers);
    expect(answers.filter((res) => res.status === 429).length).toBeGreaterThanOrEqual(20);
  }, 30_000);

  it('a lookup answered from the cache costs no share', async () => {
    const key = await h.newKey(['thumbs']);
    const post = h.board.addPost({ id: 77_003, ext: 'png' }, Buffer.from('cached post'));
    expect((await lookup(post.id, key, '203.0.113.40')).status).toBe(200);
    const before = h.board.requests.length;
    const again = await Promise.all(Array.from({ length: 10 }, () => lookup(post.id, key, '203.0.113.40')));
    expect(again.map((res) => res.status)).toEqual(Array(10).fill(200));
    expect(h.board.requests.length).toBe(before);
  });
});
