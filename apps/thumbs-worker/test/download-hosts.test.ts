import { makePng, type FakeBoard } from '@pawlink/board/testing';
import { THUMBNAIL_FAILURE_REASONS } from '@pawlink/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captureLogLines,
  startTrap,
  startWorkerHarness,
  type CapturedLogs,
  type ThumbnailJob,
  type Trap,
  type WorkerHarness,
} from './support.js';

/*
 * A hostile or spoofed board names the file to download. The worker fetches only from the
 * board's media hosts (here the fake board, allowed at its loopback address, and
 * `localhost:<trap>`, listed but not allowed at a private address), checks every redirect the
 * same way, and never connects to a refused address. Clients see one fixed reason per failure
 * class; the URL, status and md5 are in the worker's log.
 */

let harness: WorkerHarness;
let board: FakeBoard;
let trap: Trap;
let logs: CapturedLogs;
let nextId = 1;

beforeAll(async () => {
  logs = captureLogLines();
  trap = await startTrap();
  harness = await startWorkerHarness('thumbshosts', {
    env: (fakeBoard) => ({
      WORKER_CONCURRENCY: '2',
      BOARD_REQUESTS_PER_SECOND: '50',
      THUMBS_DOWNLOAD_HOSTS: `${new URL(fakeBoard.staticUrl).host},localhost:${trap.port}`,
      THUMBS_DOWNLOAD_MAX_REDIRECTS: '2',
      LOG_LEVEL: 'warn',
    }),
  });
  ({ board } = harness);
});

afterAll(async () => {
  await harness?.close();
  await trap?.close();
  logs?.stop();
});

/** A post whose file.url, as the board answers it, is `url`. */
async function postWithFileUrl(url: string): Promise<string> {
  const post = board.addPost({ id: nextId++, ext: 'png' }, await makePng(24, 24));
  board.answerRaw(`/posts.json?tags=md5:${post.md5}`, {
    posts: [{ id: post.id, file: { md5: post.md5, ext: 'png', url } }],
  });
  return post.md5;
}

/** The file's own path on the fake board answers a redirect to `location`. */
async function postRedirectingTo(location: string): Promise<string> {
  const post = board.addPost({ id: nextId++, ext: 'png' }, await makePng(24, 24));
  board.answerRaw(`/data/${post.md5.slice(0, 2)}/${post.md5.slice(2, 4)}/${post.md5}.png`, '', {
    status: 302,
    headers: { location },
  });
  return post.md5;
}

/** The worker's log line about the job's last failed attempt. */
async function failureLogged(job: ThumbnailJob): Promise<Record<string, unknown>> {
  const ofJob = (line: Record<string, unknown>): boolean => line.jobId === job.id && typeof line.detail === 'string';
  await logs.waitFor(() => logs.lines.filter(ofJob).length >= job.attemptsMade);
  return logs.lines.filter(ofJob).at(-1)!;
}

/** Nothing a client could learn about our network or the file from: no URL, host, status or md5. */
function expectGenericReason(job: ThumbnailJob): void {
  expect(Object.values(THUMBNAIL_FAILURE_REASONS)).toContain(job.failedReason);
  expect(job.failedReason).not.toMatch(/https?:|\/\/|127\.0\.0\.1|localhost|\b\d{3}\b|[0-9a-f]{32}/i);
}

describe("downloads only from the board's media hosts", () => {
  it('refuses for good, without a request there, a file.url at 127.0.0.1 (another port), a metadata address or an unlisted name', async () => {
    const md5s = await Promise.all(
      [
        `${trap.url}/data/stolen.png`,
        'http://169.254.169.254/latest/meta-data/',
        'https://files.unlisted.invalid/x.png',
      ].map(postWithFileUrl),
    );
    const jobs = await Promise.all(md5s.map((md5) => harness.run(md5, 'png')));
    for (const job of jobs) {
      expect(await job.getState()).toBe('failed');
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.download);
      expect((await failureLogged(job)).detail).toMatch(/refused: not one of the board's media hosts/);
    }
    expect(trap.hits).toEqual([]);
  });

  it('refuses a listed host whose name resolves to a loopback address', async () => {
    const job = await harness.run(await postWithFileUrl(`http://localhost:${trap.port}/inside.png`), 'png');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.download);
    expect((await failureLogged(job)).detail).toMatch(/localhost resolves to .*, not a public address/);
    expect(trap.hits).toEqual([]);
  });

  it('checks every redirect: one to 127.0.0.1 or to a listed name at a loopback address is refused at that hop', async () => {
    const md5s = await Promise.all(
      [`${trap.url}/stolen.png`, `http://localhost:${trap.port}/stolen.png`].map(postRedirectingTo),
    );
    const before = board.requests.length;
    const jobs = await Promise.all(md5s.map((md5) => harness.run(md5, 'png')));
    for (const job of jobs) {
      expect(job.attemptsMade).toBe(1);
      expect(job.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.download);
    }
    // the board was asked (post and file), the address it redirected to never was
    expect(board.requests.slice(before).filter((r) => r.path.startsWith('/data/'))).toHaveLength(2);
    expect(trap.hits).toEqual([]);
  });

  it('follows a redirect within the board and makes the thumbnail', async () => {
    const post = board.addPost({ id: nextId++, ext: 'png' }, await makePng(24, 24));
    board.answerRaw(`/posts.json?tags=md5:${post.md5}`, {
      posts: [{ id: post.id, file: { md5: post.md5, ext: 'png', url: `${board.staticUrl}/cdn/${post.md5}` } }],
    });
    board.answerRaw(`/cdn/${post.md5}`, '', {
      status: 301,
      headers: { location: `/data/${post.md5.slice(0, 2)}/${post.md5.slice(2, 4)}/${post.md5}.png` },
    });
    const job = await harness.run(post.md5, 'png');
    expect(job.failedReason ?? '').toBe('');
    expect(await job.getState()).toBe('completed');
  });
});

describe('failure reasons clients see', () => {
  it('are fixed per class, never a URL, status or md5; the worker log keeps those', async () => {
    const missing = board.addPost({ id: nextId++, ext: 'png', md5: '00112233445566778899aabbccddeeff', size: 10 });
    const mismatched = board.addPost(
      { id: nextId++, ext: 'png', md5: 'fedcba9876543210fedcba9876543210' },
      await makePng(20, 20),
    );
    const refusedMd5 = await postWithFileUrl(`${trap.url}/x.png`);
    const busy = board.addPost({ id: nextId++, ext: 'png' }, await makePng(22, 22));

    const notFound = await harness.run(missing.md5, 'png');
    expectGenericReason(notFound);
    expect(notFound.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.download);
    expect((await failureLogged(notFound)).detail).toMatch(
      new RegExp(`the board has no file at http://127\\.0\\.0\\.1:\\d+/data/.*${missing.md5}\\.png \\(HTTP 404\\)`),
    );

    const mismatch = await harness.run(mismatched.md5, 'png');
    expectGenericReason(mismatch);
    expect(mismatch.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.mismatch);
    expect((await failureLogged(mismatch)).detail).toMatch(
      /downloaded file has md5 [0-9a-f]{32}, expected fedcba9876543210fedcba9876543210/,
    );

    const refused = await harness.run(refusedMd5, 'png');
    expectGenericReason(refused);
    expect((await failureLogged(refused)).detail).toContain(`${trap.url}/x.png`);

    // every attempt gets a 503 on the file
    board.failNext(503, 3, { scope: 'media' });
    const unavailable = await harness.run(busy.md5, 'png');
    expect(unavailable.attemptsMade).toBe(3);
    expectGenericReason(unavailable);
    expect(unavailable.failedReason).toBe(THUMBNAIL_FAILURE_REASONS.download);
    expect((await failureLogged(unavailable)).detail).toMatch(
      /download of http:\/\/127\.0\.0\.1:\d+\/data\/.* failed: HTTP 503/,
    );

    expect(trap.hits).toEqual([]);
  });
});
