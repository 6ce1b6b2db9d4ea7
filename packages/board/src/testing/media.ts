import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';

/**
 * Media generated at test time (ffmpeg lavfi sources and sharp) instead of committed files.
 * Every call yields different bytes (a random hue and tag), so each file has its own md5.
 */
export interface VideoOptions {
  fps?: number;
  /** Video bitrate for ffmpeg, e.g. `1M`. */
  bitrate?: string;
  /** ffmpeg binary. Default `ffmpeg` on PATH. */
  ffmpegPath?: string;
}

async function runFfmpeg(args: string[], ffmpegPath = 'ffmpeg'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(ffmpegPath, ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${stderr.trim()}`)),
    );
  });
}

async function renderToBuffer(
  extension: string,
  args: (file: string) => string[],
  ffmpegPath?: string,
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-media-'));
  const file = path.join(dir, `out.${extension}`);
  try {
    await runFfmpeg(args(file), ffmpegPath);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// testsrc2 refuses tiny sizes, so the pattern is drawn at ≥ 32×32 and scaled (down to 1×1).
const source = (seconds: number, width: number, height: number, fps: number): string[] => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${Math.max(32, width)}x${Math.max(32, height)}:rate=${fps}:duration=${seconds}`,
  '-vf',
  `hue=h=${randomInt(0, 360)},scale=${width}:${height}`,
  '-metadata',
  `comment=pawlink-${randomBytes(8).toString('hex')}`,
];

/** A VP8 WebM of `seconds` at `width`×`height`. */
export function makeWebm(seconds: number, width: number, height: number, options: VideoOptions = {}): Promise<Buffer> {
  const fps = options.fps ?? 25;
  return renderToBuffer(
    'webm',
    (file) => [
      ...source(seconds, width, height, fps),
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      options.bitrate ?? '1M',
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-f',
      'webm',
      '-y',
      file,
    ],
    options.ffmpegPath,
  );
}

/**
 * A 64×64 grey VP8 WebM whose brightness tells the time: luma is 16 + 20 × the second it is shown
 * at, so a decoded frame says where in the video it came from. A keyframe every
 * `keyframeEverySeconds`.
 */
export function makeClockWebm(
  seconds: number,
  keyframeEverySeconds: number,
  options: { fps?: number; ffmpegPath?: string } = {},
): Promise<Buffer> {
  const fps = options.fps ?? 25;
  return renderToBuffer(
    'webm',
    (file) => [
      '-f',
      'lavfi',
      '-i',
      `color=c=black:s=64x64:r=${fps}:d=${seconds}`,
      '-vf',
      "format=yuv420p,geq=lum='16+20*T':cb=128:cr=128",
      '-metadata',
      `comment=pawlink-${randomBytes(8).toString('hex')}`,
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '200k',
      '-g',
      String(Math.round(fps * keyframeEverySeconds)),
      '-keyint_min',
      String(Math.round(fps * keyframeEverySeconds)),
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-f',
      'webm',
      '-y',
      file,
    ],
    options.ffmpegPath,
  );
}

/** An H.264 MP4 (faststart) of `seconds` at `width`×`height`. */
export function makeMp4(seconds: number, width: number, height: number, options: VideoOptions = {}): Promise<Buffer> {
  const fps = options.fps ?? 25;
  return renderToBuffer(
    'mp4',
    (file) => [
      ...source(seconds, width, height, fps),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      options.bitrate ?? '1M',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-an',
      '-f',
      'mp4',
      '-y',
      file,
    ],
    options.ffmpegPath,
  );
}

/** An MP4 with an AAC audio track and no video stream at all. */
export function makeAudioOnlyMp4(seconds: number, options: { ffmpegPath?: string } = {}): Promise<Buffer> {
  return renderToBuffer(
    'mp4',
    (file) => [
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${randomInt(200, 2000)}:duration=${seconds}`,
      '-metadata',
      `comment=pawlink-${randomBytes(8).toString('hex')}`,
      '-c:a',
      'aac',
      '-b:a',
      '32k',
      '-vn',
      '-f',
      'mp4',
      '-y',
      file,
    ],
    options.ffmpegPath,
  );
}

/**
 * `gif` with a comment extension holding a random tag before its trailer: a GIF has no metadata
 * ffmpeg or sharp would write, and a few hundred hues alone let two calls make the same bytes.
 */
function withUniqueComment(gif: Buffer): Buffer {
  const tag = Buffer.from(`pawlink-${randomBytes(8).toString('hex')}`);
  const comment = Buffer.concat([Buffer.from([0x21, 0xfe, tag.length]), tag, Buffer.from([0x00])]);
  return Buffer.concat([gif.subarray(0, -1), comment, gif.subarray(-1)]);
}

/** An animated, looping GIF with `frames` frames at 10 fps. */
export async function makeAnimatedGif(
  frames: number,
  width: number,
  height: number,
  options: { ffmpegPath?: string } = {},
): Promise<Buffer> {
  return withUniqueComment(
    await renderToBuffer(
      'gif',
      (file) => [
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=${width}x${height}:rate=10`,
        '-vf',
        `hue=h=${randomInt(0, 360)}`,
        '-frames:v',
        String(frames),
        '-loop',
        '0',
        '-f',
        'gif',
        '-y',
        file,
      ],
      options.ffmpegPath,
    ),
  );
}

/**
 * An animated GIF of solid frames, each a different colour, at 10 fps: a few hundred bytes per
 * frame whatever the size, for tests that need big pages under a small download cap.
 */
export async function makeSolidAnimatedGif(frames: number, width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * frames * 3);
  const hue = randomInt(0, 256);
  for (let frame = 0; frame < frames; frame++) {
    pixels.fill(
      Buffer.from([(hue + frame * 37) & 0xff, (frame * 11) & 0xff, 255 - ((frame * 23) & 0xff)]),
      frame * width * height * 3,
      (frame + 1) * width * height * 3,
    );
  }
  return withUniqueComment(
    await sharp(pixels, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
      .gif({ delay: Array.from({ length: frames }, () => 100), loop: 0 })
      .toBuffer(),
  );
}

/** An animated WebP with `frames` frames (converted from an animated GIF by sharp). */
export async function makeAnimatedWebp(frames: number, width: number, height: number): Promise<Buffer> {
  const gif = await makeAnimatedGif(frames, width, height);
  return sharp(gif, { animated: true }).webp({ quality: 80 }).toBuffer();
}

/** A colourful gradient with a random tint, as raw RGB. */
function gradient(width: number, height: number): Sharp {
  const tint = randomInt(0, 256);
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const offset = (y * width + x) * 3;
      pixels[offset] = Math.floor((x / Math.max(1, width - 1)) * 255);
      pixels[offset + 1] = Math.floor((y / Math.max(1, height - 1)) * 255);
      pixels[offset + 2] = (tint + x + y) & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

/**
 * A random tag in the EXIF description: the gradient has only 256 tints, so a test making a few
 * images of one size would otherwise get two with the same md5 (one post, one thumbnail job).
 */
const uniqueTag = () => ({ IFD0: { ImageDescription: `pawlink-${randomBytes(8).toString('hex')}` } });

export function makePng(width: number, height: number): Promise<Buffer> {
  return gradient(width, height).png().withExif(uniqueTag()).toBuffer();
}

export function makeJpeg(width: number, height: number): Promise<Buffer> {
  return gradient(width, height).jpeg({ quality: 85 }).withExif(uniqueTag()).toBuffer();
}

export function makeWebp(width: number, height: number): Promise<Buffer> {
  return gradient(width, height).webp({ quality: 85 }).withExif(uniqueTag()).toBuffer();
}
