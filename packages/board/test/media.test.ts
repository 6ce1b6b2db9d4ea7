import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { makeAnimatedGif, makeAnimatedWebp, makeJpeg, makeMp4, makePng, makeWebm } from '../src/testing/index.js';

const probe = async (bytes: Buffer, ext: string): Promise<{ codec: string; width: number; height: number }> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-probe-'));
  try {
    const file = path.join(dir, `in.${ext}`);
    await writeFile(file, bytes);
    const out = spawnSync(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', file],
      { encoding: 'utf8' },
    );
    const stream = JSON.parse(out.stdout).streams[0];
    return { codec: stream.codec_name, width: stream.width, height: stream.height };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

it('generates videos ffprobe can read, with distinct bytes per call', async () => {
  const [webm, webm2, mp4] = await Promise.all([makeWebm(1, 64, 48), makeWebm(1, 64, 48), makeMp4(1, 64, 48)]);
  expect(await probe(webm, 'webm')).toEqual({ codec: 'vp8', width: 64, height: 48 });
  expect(await probe(mp4, 'mp4')).toEqual({ codec: 'h264', width: 64, height: 48 });
  expect(webm.equals(webm2)).toBe(false);
});

it('generates animated GIF/WebP and stills sharp can read', async () => {
  const gif = await sharp(await makeAnimatedGif(4, 50, 40), { animated: true }).metadata();
  expect({ format: gif.format, pages: gif.pages, width: gif.width }).toEqual({ format: 'gif', pages: 4, width: 50 });
  const webp = await sharp(await makeAnimatedWebp(3, 50, 40), { animated: true }).metadata();
  expect(webp.format).toBe('webp');
  expect(webp.pages).toBeGreaterThan(1);
  expect((await sharp(await makePng(30, 20)).metadata()).format).toBe('png');
  expect((await sharp(await makeJpeg(30, 20)).metadata()).format).toBe('jpeg');
});
