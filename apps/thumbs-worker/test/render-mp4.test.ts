import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeAnimatedGif, makeAnimatedWebp, makeMp4, makePng, makeWebm, type FakeBoard } from '@pawlink/board/testing';
import type { ThumbnailType } from '@pawlink/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerHarness, type WorkerHarness } from './support.js';

const run = promisify(execFile);

let harness: WorkerHarness;
let board: FakeBoard;
let thumbsDir: string;
let scratch: string;
let nextId = 1;

beforeAll(async () => {
  harness = await startWorkerHarness('thumbsmp4', { env: { WORKER_CONCURRENCY: '2' } });
  ({ board, thumbsDir } = harness);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'pawlink-mp4-test-'));
});

afterAll(async () => {
  await harness?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function render(bytes: Buffer, ext: string, type: ThumbnailType) {
  const post = board.addPost({ id: nextId++, ext }, bytes);
  const job = await harness.run(post.md5, type);
  expect(job.failedReason).toBeUndefined();
  return { post, job };
}

interface Probe {
  streams: Array<{
    codec_type: string;
    codec_name: string;
    pix_fmt?: string;
    width?: number;
    height?: number;
    nb_frames?: string;
  }>;
  format: { format_name: string; duration: string };
}

const probe = async (file: string): Promise<Probe> =>
  JSON.parse(
    (
      await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,pix_fmt,width,height,nb_frames:format=format_name,duration',
        '-of',
        'json',
        file,
      ])
    ).stdout,
  ) as Probe;

/** The file's top-level ISO BMFF boxes, in order (`size` 1 is a 64-bit size, 0 runs to the end). */
function topLevelBoxes(bytes: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= bytes.length;) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    else if (size === 0) size = bytes.length - at;
    if (size < 8) throw new Error(`box ${type} at ${at} has size ${size}`);
    boxes.push(type);
    at += size;
  }
  return boxes;
}

/** What every MP4 thumbnail is: H.264 yuv420p, one video stream and nothing else, even sides within the box, its index first. */
async function checkMp4(md5: string): Promise<{ bytes: Buffer; video: Probe['streams'][number]; duration: number }> {
  const file = path.join(thumbsDir, `${md5}.mp4`);
  const bytes = await readFile(file);
  const { streams, format } = await probe(file);
  expect(streams.map((s) => s.codec_type)).toEqual(['video']);
  const video = streams[0]!;
  expect({ codec: video.codec_name, pixFmt: video.pix_fmt }).toEqual({ codec: 'h264', pixFmt: 'yuv420p' });
  expect(format.format_name).toContain('mp4');
  expect(video.width! % 2).toBe(0);
  expect(video.height! % 2).toBe(0);
  expect(Math.max(video.width!, video.height!)).toBeLessThanOrEqual(320);
  const boxes = topLevelBoxes(bytes);
  expect(boxes[0]).toBe('ftyp');
  expect(boxes).toContain('mdat');
  expect(boxes.indexOf('moov')).toBeGreaterThan(-1);
  expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  return { bytes, video, duration: Number(format.duration) };
}

const COLOURS = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 0],
];

/** An animated GIF whose frames are each one of COLOURS (in turn), shown for `delays` ms each. */
async function colourGif(width: number, height: number, delays: number[]): Promise<Buffer> {
  const pixels = Buffer.concat(
    delays.map((_, i) => Buffer.alloc(width * height * 3).fill(Buffer.from(COLOURS[i % COLOURS.length]!))),
  );
  const tag = Buffer.from(`pawlink-mp4-${nextId}-${Date.now()}`);
  const gif = await sharp(pixels, { raw: { width, height: height * delays.length, channels: 3, pageHeight: height } })
    .gif({ delay: delays, loop: 0 })
    .toBuffer();
  // a comment extension before the trailer gives each call its own md5
  return Buffer.concat([
    gif.subarray(0, -1),
    Buffer.from([0x21, 0xfe, tag.length]),
    tag,
    Buffer.from([0x00]),
    gif.subarray(-1),
  ]);
}

/** A video with a sound track (testsrc2 and a sine), so "no audio" in the MP4 means something. */
async function videoWithAudio(seconds: number, width: number, height: number): Promise<Buffer> {
  const file = path.join(scratch, `with-audio-${nextId}.mp4`);
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=15:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-metadata',
    `comment=pawlink-mp4-${Date.now()}-${nextId}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-y',
    file,
  ]);
  return readFile(file);
}

describe('mp4 thumbnails (real ffmpeg)', () => {
  it("makes an MP4 of the GIF's clip from a webm: 3 s at 10 fps, at most 0.3× the GIF's bytes", async () => {
    const { post, job } = await render(await makeWebm(4.5, 480, 270, { fps: 15 }), 'webm', 'mp4');
    expect(job.returnvalue).toMatchObject({
      md5: post.md5,
      type: 'mp4',
      file: `${post.md5}.mp4`,
      width: 320,
      height: 180,
      frames: 30,
    });
    const mp4 = await checkMp4(post.md5);
    expect({ width: mp4.video.width, height: mp4.video.height, frames: Number(mp4.video.nb_frames) }).toEqual({
      width: 320,
      height: 180,
      frames: 30,
    });
    expect(mp4.duration).toBeCloseTo(3, 1);

    const gifJob = await harness.run(post.md5, 'gif');
    expect(gifJob.returnvalue?.frames).toBe(30);
    const gif = await readFile(path.join(thumbsDir, `${post.md5}.gif`));
    expect(mp4.bytes.length).toBeLessThanOrEqual(0.3 * gif.length);
  });

  it("leaves out the input's sound (an mp4 with an AAC track)", async () => {
    const { post, job } = await render(await videoWithAudio(2, 480, 270), 'mp4', 'mp4');
    expect(job.returnvalue).toMatchObject({ width: 320, height: 180, frames: 20 });
    const mp4 = await checkMp4(post.md5);
    expect(mp4.duration).toBeCloseTo(2, 1);
    const gifJob = await harness.run(post.md5, 'gif');
    const gif = await readFile(path.join(thumbsDir, gifJob.returnvalue.file));
    expect(mp4.bytes.length).toBeLessThanOrEqual(0.3 * gif.length);
  });

  it('makes an odd-sized clip even (a 65×49 animated GIF: the MP4 drops the odd column and row)', async () => {
    const { post, job } = await render(await colourGif(65, 49, [100, 100, 100, 100]), 'gif', 'mp4');
    expect(job.returnvalue).toMatchObject({ width: 65, height: 49, frames: 4 });
    const mp4 = await checkMp4(post.md5);
    expect({ width: mp4.video.width, height: mp4.video.height, frames: Number(mp4.video.nb_frames) }).toEqual({
      width: 64,
      height: 48,
      frames: 4,
    });
    expect(mp4.duration).toBeCloseTo(0.4, 1);
  });

  it("keeps a portrait mp4's box", async () => {
    const { post } = await render(await makeMp4(2, 240, 400), 'mp4', 'mp4');
    const mp4 = await checkMp4(post.md5);
    expect({ width: mp4.video.width, height: mp4.video.height }).toEqual({ width: 192, height: 320 });
  });

  it.each([
    ['an animated GIF', 'gif', () => makeAnimatedGif(30, 200, 150)],
    ['an animated WebP', 'webp', () => makeAnimatedWebp(30, 200, 150)],
  ] as const)('makes an MP4 from %s: the same frames and timing as its GIF', async (_label, ext, make) => {
    const { post, job } = await render(await make(), ext, 'mp4');
    expect(job.returnvalue).toMatchObject({ width: 200, height: 150, frames: 30 });
    const mp4 = await checkMp4(post.md5);
    expect({ width: mp4.video.width, height: mp4.video.height, frames: Number(mp4.video.nb_frames) }).toEqual({
      width: 200,
      height: 150,
      frames: 30,
    });
    expect(mp4.duration).toBeCloseTo(3, 1);
  });

  it("keeps an animation's own frame timing (delays of 100, 300, 200, 400 ms: 1 s)", async () => {
    const { post } = await render(await colourGif(64, 48, [100, 300, 200, 400]), 'gif', 'mp4');
    const mp4 = await checkMp4(post.md5);
    expect(mp4.duration).toBeCloseTo(1, 1);
    // decoded back at its own rate, each colour is on screen for its delay (10 frames at 10 fps)
    const { stdout } = await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-i',
        path.join(thumbsDir, `${post.md5}.mp4`),
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        'pipe:1',
      ],
      { encoding: 'buffer', maxBuffer: 1 << 26 },
    );
    const frameBytes = 64 * 48 * 3;
    const shown = Array.from({ length: stdout.length / frameBytes }, (_, i) => {
      const centre = i * frameBytes + (24 * 64 + 32) * 3;
      return COLOURS.findIndex((rgb) => rgb.every((c, k) => Math.abs(stdout[centre + k]! - c) < 40));
    });
    expect(shown).toEqual([0, 1, 1, 1, 2, 2, 3, 3, 3, 3]);
  });

  it('makes one second of a still image', async () => {
    const { post, job } = await render(await makePng(300, 201), 'png', 'mp4');
    expect(job.returnvalue).toMatchObject({ type: 'mp4', width: 300, height: 201, written: ['png', 'mp4'] });
    const mp4 = await checkMp4(post.md5);
    expect({ width: mp4.video.width, height: mp4.video.height }).toEqual({ width: 300, height: 200 });
    expect(mp4.duration).toBeCloseTo(1, 1);
  });
});
