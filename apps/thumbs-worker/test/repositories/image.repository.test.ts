import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeAnimatedGif, makePng } from '@pawlink/board/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageRepository } from '../../src/repositories/image.repository.js';
import { ImageClipService } from '../../src/services/image-clip.service.js';
import { UnsupportedMediaError } from '../../src/domain/thumbnail.errors.js';

let dir: string;
// the repository probes and decodes; the clip service decides what (domain/clip-plan.rules.ts)
const images = new ImageClipService(new ImageRepository());
const request = { box: 320, maxFps: 10, maxFrames: 60, clipSeconds: 3, maxInputPixels: 100_000_000 };

const file = async (name: string, bytes: Buffer | string): Promise<string> => {
  const target = path.join(dir, name);
  await writeFile(target, bytes);
  return target;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-image-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ImageRepository, through ImageClipService', () => {
  it('decodes 3 s of a 9 s animation (30 of its 90 pages) fitted into the box', async () => {
    const clip = await images.readClip(await file('anim.gif', await makeAnimatedGif(90, 480, 270)), request);
    expect({ width: clip.width, height: clip.height, frames: clip.frames.length }).toEqual({
      width: 320,
      height: 180,
      frames: 30,
    });
    expect(clip.delaysMs).toEqual(clip.frames.map(() => 100));
    expect(clip.frames.every((frame) => frame.length === 320 * 180 * 4)).toBe(true);
  });

  it('decodes a still as one frame, never enlarging', async () => {
    const clip = await images.readClip(await file('still.png', await makePng(100, 80)), request);
    expect({ width: clip.width, height: clip.height, frames: clip.frames.length }).toEqual({
      width: 100,
      height: 80,
      frames: 1,
    });
  });

  it('refuses formats the board does not serve, and garbage, without our path in the reason', async () => {
    const svg = await file('vector.png', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(images.readClip(svg, request)).rejects.toThrow(
      new UnsupportedMediaError('unsupported image format "svg"'),
    );
    const error = await images.readClip(await file('garbage.png', 'not an image'), request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedMediaError);
    expect((error as Error).message).toMatch(/^not a readable image/);
    expect((error as Error).message).not.toContain(dir);
  });
});
