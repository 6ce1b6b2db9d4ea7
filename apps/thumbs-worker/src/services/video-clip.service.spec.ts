import { describe, expect, it } from 'vitest';
import type { FrameSink } from '../domain/clip.rules.js';
import type { VideoDecode, VideoProbe } from '../domain/clip-plan.rules.js';
import type { DecodedVideo } from '../repositories/video.repository.js';
import { UnsupportedMediaError } from '../domain/thumbnail.errors.js';
import { VideoClipService } from './video-clip.service.js';

const request = { box: 320, maxFps: 10, maxFrames: 60, clipSeconds: 3, maxInputPixels: 100_000_000 };
const probe: VideoProbe = { width: 640, height: 360, duration: 30, fps: 25, keyframes: [0, 10, 20] };

/** A fake repository: answers the probe, and each decode with the next of `answers`. */
function fakeVideos(answers: Buffer[][]) {
  const decodes: Array<{ decode: VideoDecode; sink: FrameSink | undefined }> = [];
  return {
    decodes,
    repository: {
      probe: () => Promise.resolve(probe),
      decode: (_file: string, decode: VideoDecode, _signal?: AbortSignal, sink?: FrameSink): Promise<DecodedVideo> => {
        decodes.push({ decode, sink });
        const frames = answers.shift() ?? [];
        for (const frame of frames) sink?.write(frame);
        return Promise.resolve({
          width: decode.width,
          height: decode.height,
          frames,
          lastMessage: 'moov atom not found',
        });
      },
    },
  };
}

describe('VideoClipService', () => {
  it("decodes the plan's stretch and makes the clip of its frames, streaming them to the sink", async () => {
    const { repository, decodes } = fakeVideos([[Buffer.from([1]), Buffer.from([2])]]);
    const streamed: Buffer[] = [];
    const sizes: unknown[] = [];
    const clip = await new VideoClipService(repository).readClip('in.webm', request, undefined, (size) => {
      sizes.push(size);
      return { write: (frame) => void streamed.push(frame) };
    });
    expect(decodes.map((d) => d.decode)).toEqual([
      { start: { seconds: 10, atKeyframe: true }, seconds: 3, fps: 10, width: 320, height: 180, maxFrames: 60 },
    ]);
    expect(sizes).toEqual([{ width: 320, height: 180 }]);
    expect(streamed).toEqual(clip.frames);
    expect(clip).toEqual({
      width: 320,
      height: 180,
      frames: [Buffer.from([1]), Buffer.from([2])],
      delaysMs: [100, 100],
    });
  });

  it('decodes again from the very start, into the same sink, when nothing came after the seek point', async () => {
    const { repository, decodes } = fakeVideos([[], [Buffer.from([1])]]);
    const clip = await new VideoClipService(repository).readClip('in.webm', request, undefined, () => ({
      write: () => undefined,
    }));
    expect(decodes.map((d) => d.decode.start)).toEqual([
      { seconds: 10, atKeyframe: true },
      { seconds: 0, atKeyframe: true },
    ]);
    expect(decodes[1]!.sink).toBe(decodes[0]!.sink);
    expect(clip.frames).toEqual([Buffer.from([1])]);
  });

  it("refuses a video no decode gave a frame of, with ffmpeg's last message", async () => {
    const { repository, decodes } = fakeVideos([[], []]);
    await expect(new VideoClipService(repository).readClip('in.webm', request)).rejects.toThrow(
      new UnsupportedMediaError('no video frames could be decoded: moov atom not found'),
    );
    expect(decodes).toHaveLength(2);
  });

  it('refuses a video over the pixel limit without decoding it', async () => {
    const { repository, decodes } = fakeVideos([]);
    await expect(
      new VideoClipService(repository).readClip('in.webm', { ...request, maxInputPixels: 1000 }),
    ).rejects.toThrow(
      new UnsupportedMediaError('video is 640×360, over the 1000 pixel limit', { failure: 'tooLarge' }),
    );
    expect(decodes).toEqual([]);
  });
});
