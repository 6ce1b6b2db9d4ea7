import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMp4 } from '../../src/repositories/mp4-encoder.repository.js';
import type { Clip } from '../../src/domain/clip.rules.js';

let dir: string;
let n = 0;
const out = (): string => path.join(dir, `out-${n++}.mp4`);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-mp4-encoder-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `frames` frames of `width`×`height`, each filled with one RGBA value. */
const solidClip = (width: number, height: number, rgba: number[], frames = 3): Clip => ({
  width,
  height,
  frames: Array.from({ length: frames }, () => Buffer.alloc(width * height * 4).fill(Buffer.from(rgba))),
  delaysMs: Array.from({ length: frames }, () => 100),
});

/** The MP4 decoded back to RGB, every frame. */
async function decoded(mp4: Buffer): Promise<Buffer> {
  const file = out();
  await writeFile(file, mp4);
  return (
    await promisify(execFile)(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 1 << 26 },
    )
  ).stdout;
}

describe('encodeMp4 (real ffmpeg)', () => {
  it('shows transparent pixels as black (an MP4 has no alpha)', async () => {
    const rgb = await decoded(await encodeMp4('ffmpeg', solidClip(32, 32, [255, 255, 255, 0]), out()));
    expect(rgb.length).toBe(32 * 32 * 3 * 3);
    expect(Math.max(...rgb)).toBeLessThan(24);
  });

  it('keeps opaque colours (BT.601 both ways)', async () => {
    const rgb = await decoded(await encodeMp4('ffmpeg', solidClip(32, 32, [200, 40, 90, 255]), out()));
    const centre = (16 * 32 + 16) * 3;
    expect([...rgb.subarray(centre, centre + 3)].map((c, i) => Math.abs(c - [200, 40, 90][i]!))).toSatisfy(
      (d: number[]) => d.every((x) => x <= 8),
    );
  });

  it('refuses a clip without frames', async () => {
    await expect(encodeMp4('ffmpeg', { width: 8, height: 8, frames: [], delaysMs: [] }, out())).rejects.toThrow(
      'clip has no frames',
    );
  });

  it("fails with ffmpeg's last line when ffmpeg fails", async () => {
    const broken = path.join(dir, 'broken-ffmpeg');
    await writeFile(broken, '#!/bin/sh\necho "Unknown encoder libx264" >&2\nexit 1\n');
    await chmod(broken, 0o755);
    await expect(encodeMp4(broken, solidClip(8, 8, [0, 0, 0, 255]), out())).rejects.toThrow(
      'ffmpeg could not encode the MP4 (exit 1): Unknown encoder libx264',
    );
  });

  it('stops at once for an aborted job', async () => {
    const reason = new Error('over budget');
    await expect(encodeMp4('ffmpeg', solidClip(8, 8, [0, 0, 0, 255]), out(), AbortSignal.abort(reason))).rejects.toBe(
      reason,
    );
  });
});
