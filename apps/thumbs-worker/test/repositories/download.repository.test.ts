import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadRepository } from '../../src/repositories/download.repository.js';
import { UnsupportedMediaError } from '../../src/services/thumbnail.errors.js';

let board: FakeBoard;
let dir: string;
let png: Buffer;
let url: string;

const options = { userAgent: 'PawlinkTest/1.0 (download)', maxBytes: 10 * 1024 * 1024, timeoutMs: 5000 };
const download = (from: string, file: string, overrides: Partial<typeof options> = {}) => new DownloadRepository({ ...options, ...overrides }).download(from, file);

beforeAll(async () => {
  board = await startFakeBoard();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-download-'));
  png = await makePng(120, 90);
  const post = board.addPost({ id: 1, ext: 'png' }, png);
  url = `${board.staticUrl}/data/${post.md5.slice(0, 2)}/${post.md5.slice(2, 4)}/${post.md5}.png`;
});

afterAll(async () => {
  await board.close();
  await rm(dir, { recursive: true, force: true });
});

describe('DownloadRepository.download', () => {
  it('streams the file to disk and reports its size and md5, with the User-Agent', async () => {
    const file = path.join(dir, 'ok.png');
    const result = await download(url, file);
    expect(result).toEqual({ bytes: png.length, md5: createHash('md5').update(png).digest('hex') });
    expect((await readFile(file)).equals(png)).toBe(true);
    expect(board.requests.at(-1)?.userAgent).toBe(options.userAgent);
  });

  it('treats a missing file as unrecoverable', async () => {
    const error = await download(`${board.staticUrl}/data/00/00/00000000000000000000000000000000.png`, path.join(dir, 'missing.png')).catch((e: unknown) => e);
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

  it('gives up at once when the job aborts it, with the job\'s reason', async () => {
    board.setMediaDelay(3000);
    try {
      const controller = new AbortController();
      const reason = new Error('job budget spent');
      setTimeout(() => controller.abort(reason), 100);
      const error = await new DownloadRepository(options).download(url, path.join(dir, 'aborted.png'), controller.signal).catch((e: unknown) => e);
      expect(error).toBe(reason);
    } finally {
      board.setMediaDelay(0);
    }
  });
});
