import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeClockWebm, makeMp4, makeWebm } from '@pawlink/board/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoRepository } from '../../src/repositories/video.repository.js';
import { VideoClipService } from '../../src/services/video-clip.service.js';
import { UnsupportedMediaError } from '../../src/domain/thumbnail.errors.js';

let dir: string;
let webm: string;
const videos = new VideoRepository({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
// the repository probes and decodes; the clip service decides what (domain/clip-plan.rules.ts)
const clips = new VideoClipService(videos);
const request = { box: 320, maxFps: 10, maxFrames: 60, clipSeconds: 3, maxInputPixels: 100_000_000 };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-video-'));
  webm = path.join(dir, 'input.webm');
  await writeFile(webm, await makeWebm(4.5, 480, 270, { fps: 15 }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** When a frame of `makeClockWebm` was shown, from its brightness (RGB ≈ 1.164 × 20 × seconds). */
const shownAt = (frame: Buffer): number => frame[0]! / 1.164 / 20;

describe('VideoRepository, through VideoClipService', () => {
  it('probes the display size, length and frame rate', async () => {
    const probe = await videos.probe(webm);
    expect({ width: probe.width, height: probe.height, fps: probe.fps }).toEqual({ width: 480, height: 270, fps: 15 });
    expect(probe.duration).toBeCloseTo(4.5, 0);
  });

  it('decodes up to 3 s at ≤ 10 fps fitted into the box, as RGBA frames', async () => {
    const clip = await clips.readClip(webm, request);
    expect({ width: clip.width, height: clip.height }).toEqual({ width: 320, height: 180 });
    expect(clip.frames.length).toBeGreaterThan(1);
    expect(clip.frames.length).toBeLessThanOrEqual(30);
    expect(clip.frames.every((frame) => frame.length === 320 * 180 * 4)).toBe(true);
    expect(clip.delaysMs).toEqual(clip.frames.map(() => 100));
  });

  it('hands each frame to the sink as it is decoded: exactly the frames of the clip', async () => {
    const streamed: Buffer[] = [];
    const sizes: Array<{ width: number; height: number }> = [];
    const clip = await clips.readClip(webm, request, undefined, (size) => {
      sizes.push(size);
      return { write: (frame) => void streamed.push(Buffer.from(frame)) };
    });
    expect(sizes).toEqual([{ width: 320, height: 180 }]);
    expect(streamed.length).toBe(clip.frames.length);
    expect(streamed.every((frame, i) => frame.equals(clip.frames[i]!))).toBe(true);
  });

  it('starts the clip at the keyframe nearest a third in, so nothing before it is decoded', async () => {
    const clock = path.join(dir, 'clock.webm');
    await writeFile(clock, await makeClockWebm(10, 1));
    expect((await videos.probe(clock)).keyframes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const clip = await clips.readClip(clock, request);
    expect(shownAt(clip.frames[0]!)).toBeCloseTo(3, 1);
    expect(shownAt(clip.frames.at(-1)!)).toBeCloseTo(5.9, 1);
  });

  it('starts the clip a third in when no keyframe is near it, dropping the frames decoded before', async () => {
    const clock = path.join(dir, 'clock-one-keyframe.webm');
    await writeFile(clock, await makeClockWebm(10, 20));
    expect((await videos.probe(clock)).keyframes).toEqual([0]);
    const clip = await clips.readClip(clock, request);
    // the first frame at or after 10/3 s, at 25 fps
    expect(shownAt(clip.frames[0]!)).toBeCloseTo(3.36, 1);
  });

  it('decodes a single frame when one is asked for, never enlarging', async () => {
    const small = path.join(dir, 'small.mp4');
    await writeFile(small, await makeMp4(1, 96, 64));
    const clip = await clips.readClip(small, { ...request, maxFrames: 1 });
    expect({ width: clip.width, height: clip.height, frames: clip.frames.length }).toEqual({
      width: 96,
      height: 64,
      frames: 1,
    });
  });

  it('refuses a video over the pixel limit before decoding, and text as unreadable, without our path in the reason', async () => {
    await expect(clips.readClip(webm, { ...request, maxInputPixels: 1000 })).rejects.toThrow(
      new UnsupportedMediaError('video is 480×270, over the 1000 pixel limit', { failure: 'tooLarge' }),
    );
    const text = path.join(dir, 'text.webm');
    await writeFile(text, 'not a video');
    const error = await clips.readClip(text, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedMediaError);
    expect((error as Error).message).toMatch(/^not a readable video/);
    expect((error as Error).message).not.toContain(dir);
  });

  it("stops with the job's reason when the job is aborted", async () => {
    const reason = new Error('job budget spent');
    await expect(clips.readClip(webm, request, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
