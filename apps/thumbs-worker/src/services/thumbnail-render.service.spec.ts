import { THUMBNAIL_PROGRESS, type ThumbnailJobPayload, type ThumbnailType } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import type { RenderLimits } from '../config.js';
import type { BoardFile } from '../repositories/post.repository.js';
import type { Clip, ClipRequest, FrameSinkFor } from '../domain/clip.rules.js';
import { ThumbnailRenderService, type ThumbnailRenderDeps } from './thumbnail-render.service.js';
import { UnsupportedMediaError } from '../domain/thumbnail.errors.js';

const MD5 = '0123456789abcdef0123456789abcdef';
const limits: RenderLimits = { maxInputPixels: 1_000_000, maxFrames: 30, maxDurationSeconds: 3, size: 320, fps: 10 };
const clip = (frames: number): Clip => ({
  width: 32,
  height: 18,
  frames: Array.from({ length: frames }, () => Buffer.alloc(32 * 18 * 4)),
  delaysMs: Array.from({ length: frames }, () => 100),
});

/** In-memory stand-ins for every repository the service uses, recording what it asked of them. */
function fakes(
  options: {
    posts?: BoardFile[];
    downloadedMd5?: string;
    decode?: (request: ClipRequest, sinkFor?: FrameSinkFor) => Promise<Clip>;
    published?: Array<ThumbnailType | 'thumbhash'>;
  } = {},
) {
  const posts = new Map((options.posts ?? []).map((post) => [post.md5, post]));
  const published = new Set(options.published ?? []);
  const calls = {
    workDirsCreated: 0,
    workDirsRemoved: 0,
    downloads: [] as Array<{ url: string; file: string }>,
    decoded: [] as Array<{ decoder: 'video' | 'image'; file: string; request: ClipRequest }>,
    written: [] as Array<{ md5: string; type: ThumbnailType | 'thumbhash'; bytes: string }>,
    logged: [] as string[],
    gifsStarted: 0,
    gifsCancelled: 0,
    mp4Files: [] as string[],
  };
  const decode = options.decode ?? ((request: ClipRequest) => Promise.resolve(clip(request.maxFrames)));
  const deps: ThumbnailRenderDeps = {
    posts: { findFileByMd5: (md5) => Promise.resolve(posts.get(md5) ?? null) },
    workDirs: {
      create: () => {
        const n = ++calls.workDirsCreated;
        return Promise.resolve({
          file: (name: string) => `/work/${n}/${name}`,
          remove: () => Promise.resolve(void calls.workDirsRemoved++),
        });
      },
    },
    downloads: {
      download: (url, file) => {
        calls.downloads.push({ url, file });
        return Promise.resolve({ bytes: 1234, md5: options.downloadedMd5 ?? MD5 });
      },
    },
    videos: {
      // like the real decoder, streams every frame of the clip to the sink it is given
      readClip: async (file, request, _signal, sinkFor) => {
        calls.decoded.push({ decoder: 'video', file, request });
        const decoded = await decode(request, sinkFor);
        const sink = sinkFor?.(decoded);
        for (const frame of decoded.frames) sink?.write(frame);
        return decoded;
      },
    },
    images: { readClip: (file, request) => (calls.decoded.push({ decoder: 'image', file, request }), decode(request)) },
    encoder: {
      gif: (c) => Promise.resolve(Buffer.from(`gif of ${c.frames.length}`)),
      startGif: () => {
        const frames: Buffer[] = [];
        calls.gifsStarted++;
        return {
          write: (frame) => void frames.push(frame),
          finish: () => Promise.resolve(Buffer.from(`streamed gif of ${frames.length}`)),
          cancel: () => void calls.gifsCancelled++,
        };
      },
      png: () => Promise.resolve(Buffer.from('png')),
      webp: (c) => Promise.resolve(Buffer.from(`webp of ${c.frames.length}`)),
      mp4: (c, outFile) => (calls.mp4Files.push(outFile), Promise.resolve(Buffer.from(`mp4 of ${c.frames.length}`))),
      thumbhash: () => Promise.resolve(Buffer.from('hash')),
    },
    thumbnails: {
      write: (md5, type, bytes) => {
        calls.written.push({ md5, type, bytes: Buffer.from(bytes).toString() });
        return Promise.resolve(`/thumbs/${md5}.${type}`);
      },
      writeThumbhash: (md5, bytes) => {
        calls.written.push({ md5, type: 'thumbhash', bytes: Buffer.from(bytes).toString() });
        return Promise.resolve(`/thumbs/${md5}.thumbhash`);
      },
      exists: (_md5, type) => Promise.resolve(published.has(type)),
      hasThumbhash: () => Promise.resolve(published.has('thumbhash')),
    },
    logger: { info: (message) => calls.logged.push(message), warn: (message) => calls.logged.push(message) },
    limits,
    now: (() => {
      let t = 1000;
      return () => (t += 250);
    })(),
  };
  return { deps, calls };
}

const webm: BoardFile = {
  md5: MD5,
  ext: 'webm',
  url: 'https://static.example/data/01/23/0123456789abcdef0123456789abcdef.webm',
};
const payload = (type: ThumbnailType, md5 = MD5): ThumbnailJobPayload => ({ md5, type, requestedAt: 0 });
const noProgress = (): Promise<void> => Promise.resolve();
const never = new AbortController().signal;

describe('ThumbnailRenderService.render', () => {
  it('refuses an md5 the board has no post for as unsupported, before any download', async () => {
    const { deps, calls } = fakes();
    const error = await new ThumbnailRenderService(deps)
      .render(payload('gif'), noProgress, never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedMediaError);
    expect((error as Error).message).toBe('post not found on the board');
    expect((error as UnsupportedMediaError).failure).toBe('notOnBoard');
    expect(calls.workDirsCreated).toBe(0);
    expect(calls.downloads).toEqual([]);
  });

  it('refuses a file type it does not render as unsupported, before any download', async () => {
    const { deps, calls } = fakes({ posts: [{ ...webm, ext: 'SWF' }] });
    const error = await new ThumbnailRenderService(deps)
      .render(payload('gif'), noProgress, never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedMediaError);
    expect((error as Error).message).toBe('unsupported file type "swf"');
    expect((error as UnsupportedMediaError).failure).toBe('unsupportedType');
    expect(calls.downloads).toEqual([]);
  });

  it('fails a download whose md5 does not match with an ordinary (retried) error, writes nothing and removes the work dir', async () => {
    const { deps, calls } = fakes({ posts: [webm], downloadedMd5: 'ffffffffffffffffffffffffffffffff' });
    const error = await new ThumbnailRenderService(deps)
      .render(payload('gif'), noProgress, never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnsupportedMediaError);
    expect((error as Error).message).toBe(`downloaded file has md5 ffffffffffffffffffffffffffffffff, expected ${MD5}`);
    expect(calls.decoded).toEqual([]);
    expect(calls.written).toEqual([]);
    expect(calls.workDirsRemoved).toBe(1);
  });

  it('a gif job decodes the clip once and writes the png, its thumbhash, the webp, then the gif', async () => {
    const { deps, calls } = fakes({ posts: [webm] });
    const result = await new ThumbnailRenderService(deps).render(payload('gif', MD5.toUpperCase()), noProgress, never);
    expect(calls.downloads).toEqual([{ url: webm.url, file: '/work/1/input.webm' }]);
    expect(calls.decoded).toEqual([
      {
        decoder: 'video',
        file: '/work/1/input.webm',
        request: { box: 320, maxFps: 10, maxFrames: 30, clipSeconds: 3, maxInputPixels: 1_000_000 },
      },
    ]);
    expect(calls.written).toEqual([
      { md5: MD5, type: 'png', bytes: 'png' },
      { md5: MD5, type: 'thumbhash', bytes: 'hash' },
      { md5: MD5, type: 'webp', bytes: 'webp of 30' },
      { md5: MD5, type: 'gif', bytes: 'streamed gif of 30' },
    ]);
    expect(result).toEqual({
      md5: MD5,
      type: 'gif',
      file: `${MD5}.gif`,
      bytes: 'streamed gif of 30'.length,
      width: 32,
      height: 18,
      frames: 30,
      durationMs: 250,
      written: ['png', 'webp', 'gif'],
    });
    expect(calls.workDirsRemoved).toBe(1);
    expect(calls.logged).toEqual(['thumbnail written']);
  });

  it("a gif job streams a video's frames to the GIF encoder while they are decoded, and gives an image's whole clip to it", async () => {
    const video = fakes({ posts: [webm] });
    await new ThumbnailRenderService(video.deps).render(payload('gif'), noProgress, never);
    expect(video.calls.written.at(-1)).toEqual({ md5: MD5, type: 'gif', bytes: 'streamed gif of 30' });
    expect(video.calls.gifsStarted).toBe(1);

    const image = fakes({ posts: [{ ...webm, ext: 'gif' }] });
    await new ThumbnailRenderService(image.deps).render(payload('gif'), noProgress, never);
    expect(image.calls.written.at(-1)).toEqual({ md5: MD5, type: 'gif', bytes: 'gif of 30' });
    expect(image.calls.gifsStarted).toBe(0);

    const webpJob = fakes({ posts: [webm] });
    await new ThumbnailRenderService(webpJob.deps).render(payload('webp'), noProgress, never);
    expect(webpJob.calls.gifsStarted).toBe(0);
  });

  it('stops the streamed GIF encoder when the decode fails after it started', async () => {
    const { deps, calls } = fakes({
      posts: [webm],
      decode: (_request, sinkFor) => {
        sinkFor?.({ width: 32, height: 18 }).write(Buffer.alloc(32 * 18 * 4));
        return Promise.reject(new UnsupportedMediaError('no video frames could be decoded: corrupt'));
      },
    });
    await expect(new ThumbnailRenderService(deps).render(payload('gif'), noProgress, never)).rejects.toThrow(
      UnsupportedMediaError,
    );
    expect({ started: calls.gifsStarted, cancelled: calls.gifsCancelled, written: calls.written }).toEqual({
      started: 1,
      cancelled: 1,
      written: [],
    });
  });

  it('a png job decodes a single frame and writes the png only', async () => {
    const { deps, calls } = fakes({ posts: [{ ...webm, ext: 'JPG' }] });
    const result = await new ThumbnailRenderService(deps).render(payload('png'), noProgress, never);
    expect(calls.decoded).toEqual([
      { decoder: 'image', file: '/work/1/input.jpg', request: expect.objectContaining({ maxFrames: 1 }) },
    ]);
    expect(calls.written).toEqual([
      { md5: MD5, type: 'png', bytes: 'png' },
      { md5: MD5, type: 'thumbhash', bytes: 'hash' },
    ]);
    expect(result).toMatchObject({ type: 'png', file: `${MD5}.png`, bytes: 3, frames: 1, written: ['png'] });
  });

  it('a webp job decodes the whole clip and writes the png, its thumbhash and the webp, not the gif', async () => {
    const { deps, calls } = fakes({ posts: [webm] });
    const result = await new ThumbnailRenderService(deps).render(payload('webp'), noProgress, never);
    expect(calls.decoded).toEqual([
      { decoder: 'video', file: '/work/1/input.webm', request: expect.objectContaining({ maxFrames: 30 }) },
    ]);
    expect(calls.written.map((file) => file.type)).toEqual(['png', 'thumbhash', 'webp']);
    expect(result).toEqual({
      md5: MD5,
      type: 'webp',
      file: `${MD5}.webp`,
      bytes: 'webp of 30'.length,
      width: 32,
      height: 18,
      frames: 30,
      durationMs: 250,
      written: ['png', 'webp'],
    });
  });

  it('an mp4 job decodes the whole clip and writes the png, its thumbhash and the mp4 (encoded in the work dir), not the gif or the webp', async () => {
    const { deps, calls } = fakes({ posts: [webm] });
    const result = await new ThumbnailRenderService(deps).render(payload('mp4'), noProgress, never);
    expect(calls.decoded).toEqual([
      { decoder: 'video', file: '/work/1/input.webm', request: expect.objectContaining({ maxFrames: 30 }) },
    ]);
    expect(calls.gifsStarted).toBe(0);
    expect(calls.mp4Files).toEqual(['/work/1/thumbnail.mp4']);
    expect(calls.written.map((file) => file.type)).toEqual(['png', 'thumbhash', 'mp4']);
    expect(result).toEqual({
      md5: MD5,
      type: 'mp4',
      file: `${MD5}.mp4`,
      bytes: 'mp4 of 30'.length,
      width: 32,
      height: 18,
      frames: 30,
      durationMs: 250,
      written: ['png', 'mp4'],
    });
    expect(calls.workDirsRemoved).toBe(1);
  });

  it('publishes nothing when the MP4 cannot be encoded (an ordinary, retried error), and removes the work dir', async () => {
    const { deps, calls } = fakes({ posts: [webm] });
    deps.encoder.mp4 = () =>
      Promise.reject(new Error('ffmpeg could not encode the MP4 (exit 1): Unknown encoder libx264'));
    const error = await new ThumbnailRenderService(deps)
      .render(payload('mp4'), noProgress, never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnsupportedMediaError);
    expect(calls.written).toEqual([]);
    expect(calls.workDirsRemoved).toBe(1);
  });

  it('a gif job does not write the mp4', async () => {
    const { deps, calls } = fakes({ posts: [webm] });
    await new ThumbnailRenderService(deps).render(payload('gif'), noProgress, never);
    expect(calls.mp4Files).toEqual([]);
    expect(calls.written.map((file) => file.type)).not.toContain('mp4');
  });

  it('writes only the files and the thumbhash not yet published, and always the requested file', async () => {
    const { deps, calls } = fakes({ posts: [webm], published: ['png', 'thumbhash', 'gif'] });
    const result = await new ThumbnailRenderService(deps).render(payload('gif'), noProgress, never);
    expect(calls.written.map((file) => file.type)).toEqual(['webp', 'gif']);
    expect(result.written).toEqual(['webp', 'gif']);
  });

  it('writes a missing thumbhash first when the png is already published', async () => {
    const { deps, calls } = fakes({ posts: [webm], published: ['png'] });
    await new ThumbnailRenderService(deps).render(payload('webp'), noProgress, never);
    expect(calls.written.map((file) => file.type)).toEqual(['thumbhash', 'webp']);
  });

  it('reports progress at each step, in order', async () => {
    const { deps } = fakes({ posts: [webm] });
    const reported: number[] = [];
    await new ThumbnailRenderService(deps).render(
      payload('gif'),
      (percent) => Promise.resolve(void reported.push(percent)),
      never,
    );
    const { resolved, downloaded, decoded, encoded, done } = THUMBNAIL_PROGRESS;
    expect(reported).toEqual([resolved, downloaded, decoded, encoded, done]);
  });

  it('publishes nothing once the job is aborted (timed out) before publishing', async () => {
    const { deps, calls } = fakes({ posts: [webm] });
    const controller = new AbortController();
    const reason = new Error('over budget');
    const report = (percent: number): Promise<void> =>
      Promise.resolve(percent === THUMBNAIL_PROGRESS.encoded ? controller.abort(reason) : undefined);
    const error = await new ThumbnailRenderService(deps)
      .render(payload('gif'), report, controller.signal)
      .catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(calls.written).toEqual([]);
    expect(calls.workDirsRemoved).toBe(1);
  });

  it('stops after the png when the job is aborted while the png is written', async () => {
    const { deps, calls } = fakes({ posts: [webm] });
    const controller = new AbortController();
    const write = deps.thumbnails.write;
    deps.thumbnails.write = async (md5, type, bytes) => {
      const written = await write(md5, type, bytes);
      controller.abort(new Error('over budget'));
      return written;
    };
    await expect(
      new ThumbnailRenderService(deps).render(payload('gif'), noProgress, controller.signal),
    ).rejects.toThrow('over budget');
    expect(calls.written.map((file) => file.type)).toEqual(['png']);
  });

  it("removes the work dir when decoding fails, and passes the decoder's refusal on", async () => {
    const { deps, calls } = fakes({
      posts: [webm],
      decode: () => Promise.reject(new UnsupportedMediaError('not a readable video: no video stream')),
    });
    await expect(new ThumbnailRenderService(deps).render(payload('gif'), noProgress, never)).rejects.toThrow(
      UnsupportedMediaError,
    );
    expect(calls.written).toEqual([]);
    expect(calls.workDirsRemoved).toBe(1);
  });
});
