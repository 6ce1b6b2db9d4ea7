import { describe, expect, it } from 'vitest';
import { clipRequestFor, filesToWrite, mediaKindOf, thumbnailFilesOf } from './thumbnail-job.rules.js';

describe('mediaKindOf', () => {
  it("sends the board's video types to ffmpeg and its image types to sharp, in any case", () => {
    expect(['webm', 'mp4', 'm4v', 'mov', 'WEBM'].map(mediaKindOf)).toEqual([
      'video',
      'video',
      'video',
      'video',
      'video',
    ]);
    expect(['gif', 'png', 'jpg', 'jpeg', 'webp', 'avif', 'PNG'].map(mediaKindOf)).toEqual(Array(7).fill('image'));
  });
  it('renders nothing else', () => {
    expect(['swf', 'zip', 'svg', 'tiff', '', 'constructor', 'toString'].map(mediaKindOf)).toEqual(
      Array(7).fill(undefined),
    );
  });
});

describe('thumbnailFilesOf', () => {
  it('a gif job writes the png (its first frame), the webp and then the gif; a webp job the png and the webp; an mp4 job the png and the mp4; a png job the png only', () => {
    expect(thumbnailFilesOf('gif')).toEqual(['png', 'webp', 'gif']);
    expect(thumbnailFilesOf('webp')).toEqual(['png', 'webp']);
    expect(thumbnailFilesOf('mp4')).toEqual(['png', 'mp4']);
    expect(thumbnailFilesOf('png')).toEqual(['png']);
  });
});

describe('filesToWrite', () => {
  it('skips the other types already published, never the requested one', () => {
    expect(filesToWrite('gif', new Set())).toEqual(['png', 'webp', 'gif']);
    expect(filesToWrite('gif', new Set(['png', 'webp', 'gif']))).toEqual(['gif']);
    expect(filesToWrite('webp', new Set(['png']))).toEqual(['webp']);
    expect(filesToWrite('gif', new Set(['webp']))).toEqual(['png', 'gif']);
    expect(filesToWrite('png', new Set(['png']))).toEqual(['png']);
    expect(filesToWrite('mp4', new Set(['png', 'gif', 'webp']))).toEqual(['mp4']);
    expect(filesToWrite('mp4', new Set(['mp4']))).toEqual(['png', 'mp4']);
  });
});

describe('clipRequestFor', () => {
  const limits = { maxInputPixels: 100, maxFrames: 60, maxDurationSeconds: 3, size: 320, fps: 10 };
  it('asks for the whole clip for a gif, webp or mp4 job and one frame for a png job, within the limits', () => {
    expect(clipRequestFor('gif', limits)).toEqual({
      box: 320,
      maxFps: 10,
      maxFrames: 60,
      clipSeconds: 3,
      maxInputPixels: 100,
    });
    expect(clipRequestFor('webp', limits)).toEqual(clipRequestFor('gif', limits));
    expect(clipRequestFor('mp4', limits)).toEqual(clipRequestFor('gif', limits));
    expect(clipRequestFor('png', limits)).toEqual({
      box: 320,
      maxFps: 10,
      maxFrames: 1,
      clipSeconds: 3,
      maxInputPixels: 100,
    });
  });
});
