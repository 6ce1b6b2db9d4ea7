import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadRepository, type DownloadOptions } from '../../src/repositories/download.repository.js';
import { mediaHostsOf, parseMediaHost } from '@pawlink/address-safety';
import { UnsupportedMediaError } from '../../src/domain/thumbnail.errors.js';
import { startTrap, type Trap } from '../support.js';

let board: FakeBoard;
let trap: Trap;
let dir: string;
let png: Buffer;
let url: string;
let options: DownloadOptions;

const download = (from: string, file: string, overrides: Partial<DownloadOptions> = {}) =>
  new DownloadRepository({ ...options, ...overrides }).download(from, file);

beforeAll(async () => {
  board = await startFakeBoard();
  trap = await startTrap();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-download-'));
  png = await makePng(120, 90);
  const post = board.addPost({ id: 1, ext: 'png' }, png);
  url = `${board.staticUrl}/data/${post.md5.slice(0, 2)}/${post.md5.slice(2, 4)}/${post.md5}.png`;
  // the fake board is on loopback: the one host allowed at a private address, unless a test says otherwise
  const boardHosts = mediaHostsOf([board.staticUrl]);
  options = {
    userAgent: 'PawlinkTest/1.0 (download)',
    maxBytes: 10 * 1024 * 1024,
    timeoutMs: 5000,
    allowedHosts: boardHosts,
    privateHosts: boardHosts,
    maxRedirects: 2,
  };
});

afterAll(async () => {
  await board.close();
  await trap.close();
  await rm(dir, { recursive: true, force: true });
});

/** What `download` rejected with. */
const refusal = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('expected the download to be refused');
    },
    (error: unknown) => error as Error,
  );

describe('DownloadRepository.download', () => {
  it('streams the file to disk and reports its size and md5, with the User-Agent', async () => {
    const file = path.join(dir, 'ok.png');
    const result = await download(url, file);
    expect(result).toEqual({ bytes: png.length, md5: createHash('md5').update(png).digest('hex') });
    expect((await readFile(file)).equals(png)).toBe(true);
    expect(board.requests.at(-1)?.userAgent).toBe(options.userAgent);
  });

  it('treats a missing file as unrecoverable', async () => {
    const error = await download(
      `${board.staticUrl}/data/00/00/00000000000000000000000000000000.png`,
      path.join(dir, 'missing.png'),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedMediaError);
  });

  it('refuses a file over the size cap', async () => {
    const error = await download(url, path.join(dir, 'big.png'), { maxBytes: 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedMediaError);
    expect((error as Error).message).toMatch(/over the 1024 byte limit/);
  });

  it('gives up after the download timeout with a retryable error', async () => {
    board.setMediaDelay(3000);
    try {
      const error = await download(url, path.join(dir, 'slow.png'), { timeoutMs: 200 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(UnsupportedMediaError);
      expect((error as Error).message).toMatch(/timed out after 200 ms/);
    } finally {
      board.setMediaDelay(0);
    }
  });

  it('retries nothing itself on a 5xx: the job is retried by the queue', async () => {
    board.failNext(503, 1, { scope: 'media' });
    const error = await download(url, path.join(dir, 'busy.png')).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(UnsupportedMediaError);
    expect((error as Error).message).toMatch(/HTTP 503/);
  });

  it("gives up at once when the job aborts it, with the job's reason", async () => {
    board.setMediaDelay(3000);
    try {
      const controller = new AbortController();
      const reason = new Error('job budget spent');
      setTimeout(() => controller.abort(reason), 100);
      const error = await new DownloadRepository(options)
        .download(url, path.join(dir, 'aborted.png'), controller.signal)
        .catch((e: unknown) => e);
      expect(error).toBe(reason);
    } finally {
      board.setMediaDelay(0);
    }
  });
});

describe("DownloadRepository: only the board's media hosts, at public addresses", () => {
  it('refuses a host that is not listed (another port of the same address too), for good, without connecting', async () => {
    for (const target of [
      `${trap.url}/data/x.png`,
      `http://localhost:${trap.port}/x.png`,
      `http://[::1]:${trap.port}/x.png`,
    ]) {
      const error = await refusal(download(target, path.join(dir, 'unlisted.png')));
      expect(error, target).toBeInstanceOf(UnsupportedMediaError);
      expect((error as UnsupportedMediaError).failure).toBe('download');
      expect(error.message).toContain("not one of the board's media hosts");
    }
    expect(trap.hits).toEqual([]);
  });

  it('refuses a listed host at a loopback address, literal or resolved, unless it is one of the private hosts', async () => {
    const before = board.requests.length;
    const literal = await refusal(download(url, path.join(dir, 'private.png'), { privateHosts: [] }));
    expect(literal).toBeInstanceOf(UnsupportedMediaError);
    expect(literal.message).toMatch(/resolves to 127\.0\.0\.1, not a public address/);
    expect(board.requests.length).toBe(before);

    const byName = await refusal(
      download(`http://localhost:${trap.port}/x.png`, path.join(dir, 'name.png'), {
        allowedHosts: [...options.allowedHosts, parseMediaHost(`localhost:${trap.port}`)!],
      }),
    );
    expect(byName).toBeInstanceOf(UnsupportedMediaError);
    expect(byName.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), not a public address/);
    expect(trap.hits).toEqual([]);
  });

  it('refuses other schemes and credentials', async () => {
    for (const target of [
      'file:///etc/passwd',
      `ftp://127.0.0.1:${trap.port}/x.png`,
      `${board.staticUrl.replace('://', '://user:pw@')}/x.png`,
      'not a url',
    ]) {
      expect(await refusal(download(target, path.join(dir, 'scheme.png'))), target).toBeInstanceOf(
        UnsupportedMediaError,
      );
    }
    expect(trap.hits).toEqual([]);
  });

  it('follows a redirect within the board, checking it like the first URL', async () => {
    board.answerRaw('/moved/ok.png', '', { status: 302, headers: { location: new URL(url).pathname } });
    const result = await download(`${board.staticUrl}/moved/ok.png`, path.join(dir, 'moved.png'));
    expect(result.md5).toBe(createHash('md5').update(png).digest('hex'));
  });

  it('refuses, before connecting, a redirect to a host that is not listed or to a private address', async () => {
    board.answerRaw('/moved/away.png', '', { status: 301, headers: { location: `${trap.url}/stolen.png` } });
    const away = await refusal(download(`${board.staticUrl}/moved/away.png`, path.join(dir, 'away.png')));
    expect(away).toBeInstanceOf(UnsupportedMediaError);
    expect(away.message).toContain(`${trap.url}/stolen.png refused: not one of the board's media hosts`);

    // listed, but not a private host: its loopback address is refused
    board.answerRaw('/moved/inside.png', '', {
      status: 307,
      headers: { location: `http://localhost:${trap.port}/inside.png` },
    });
    const inside = await refusal(
      download(`${board.staticUrl}/moved/inside.png`, path.join(dir, 'inside.png'), {
        allowedHosts: [...options.allowedHosts, parseMediaHost(`localhost:${trap.port}`)!],
      }),
    );
    expect(inside).toBeInstanceOf(UnsupportedMediaError);
    expect(inside.message).toMatch(/localhost resolves to .*, not a public address/);
    expect(trap.hits).toEqual([]);
  });

  it('follows at most maxRedirects redirects', async () => {
    board.answerRaw('/loop/a.png', '', { status: 302, headers: { location: '/loop/b.png' } });
    board.answerRaw('/loop/b.png', '', { status: 302, headers: { location: '/loop/a.png' } });
    const before = board.requests.length;
    const error = await refusal(
      download(`${board.staticUrl}/loop/a.png`, path.join(dir, 'loop.png'), { maxRedirects: 2 }),
    );
    expect(error).toBeInstanceOf(UnsupportedMediaError);
    expect(error.message).toMatch(/more than 2 redirect/);
    expect(board.requests.length - before).toBe(3);
  });
});
