/*
 * An MP4 runs at one constant frame rate (raw frames reach the encoder without timestamps), and
 * H.264 in yuv420p needs even dimensions. These rules turn a clip (its frames may each have their
 * own display time, as an animation's thinned pages do) into that: which clip frame each video
 * frame shows, at which rate, in which size.
 */

/** A still image becomes this long a video: chat clients show a one-frame MP4 unreliably. */
export const MP4_STILL_SECONDS = 1;
/** The rate of a still's video: a repeated frame costs x264 a few bytes (a skipped block each). */
const MP4_STILL_FPS = 10;
/** The highest rate a varied-delay animation is sampled at (its shortest frame sets the rate). */
const MP4_MAX_FPS = 50;
/**
 * The most frames a varied-delay animation is sampled into. A GIF frame may say it stays for up to
 * 655 s; beside a 20 ms one, sampling at the short one's rate would make tens of thousands of
 * frames to encode. Past this the ticks grow longer instead (frames shorter than one may drop).
 */
const MP4_MAX_TICKS = 600;

/** The video's frames: `frames[i]` is the clip frame shown i-th, `fps` a rational ffmpeg reads (`1000/133`). */
export interface Mp4Timeline {
  fps: string;
  /** Frames per second as a number, for durations. */
  rate: number;
  frames: number[];
}

/**
 * The video's frames for a clip whose frames are shown for `delaysMs` each. A clip whose frames
 * all last the same (every video, most animations) is encoded frame for frame at 1000/delay fps.
 * An animation with varied delays is sampled at the rate of its shortest frame (the worker has
 * already folded frames shorter than 1/THUMBS_FPS into the one before): each tick shows the frame
 * on screen at that moment, so every frame keeps its time to within a tick and none is lost (a
 * frame at least a tick long always holds a tick), in at most MP4_MAX_TICKS frames. One frame is
 * MP4_STILL_SECONDS of it.
 */
export function mp4Timeline(delaysMs: readonly number[]): Mp4Timeline {
  if (delaysMs.length === 0) throw new Error('clip has no frames');
  if (delaysMs.length === 1)
    return {
      fps: String(MP4_STILL_FPS),
      rate: MP4_STILL_FPS,
      frames: Array.from({ length: MP4_STILL_FPS * MP4_STILL_SECONDS }, () => 0),
    };
  const delays = delaysMs.map((ms) => Math.max(1, Math.round(ms)));
  if (delays.every((ms) => ms === delays[0]))
    return { fps: `1000/${delays[0]}`, rate: 1000 / delays[0]!, frames: delays.map((_, i) => i) };
  const total = delays.reduce((sum, ms) => sum + ms, 0);
  // whole milliseconds, so the rate is an exact fraction for ffmpeg
  const tickMs = Math.ceil(Math.max(1000 / MP4_MAX_FPS, Math.min(...delays), total / MP4_MAX_TICKS));
  const ticks = Math.max(1, Math.round(total / tickMs));
  const frames: number[] = [];
  let frame = 0;
  let frameEnd = delays[0]!;
  for (let tick = 0; tick < ticks; tick++) {
    const at = tick * tickMs;
    while (at >= frameEnd && frame < delays.length - 1) frameEnd += delays[++frame]!;
    frames.push(frame);
  }
  return { fps: `1000/${tickMs}`, rate: 1000 / tickMs, frames };
}

/**
 * The video's size: H.264 in 4:2:0 needs both sides even. An odd side loses its last row or
 * column (one pixel of a ≤ 320 box, no resampling blur); a side of one pixel is padded to two.
 */
export function mp4FrameSize(width: number, height: number): { width: number; height: number } {
  const even = (side: number): number => (side < 2 ? 2 : side - (side % 2));
  return { width: even(width), height: even(height) };
}

/**
 * The ffmpeg filter from the clip's RGBA frames to the encoder's yuv420p: transparent pixels over
 * black (premultiplied: an MP4 has no alpha, and a transparent pixel's colour is otherwise
 * whatever the decoder left there), cut or padded to `mp4FrameSize`, BT.601 limited range (what
 * the file is tagged with, and what players assume below HD).
 */
export function mp4Filter(width: number, height: number): string {
  const size = mp4FrameSize(width, height);
  const steps = ['premultiply=inplace=1'];
  if (size.width < width || size.height < height)
    steps.push(`crop=${Math.min(width, size.width)}:${Math.min(height, size.height)}:0:0`);
  if (size.width > width || size.height > height) steps.push(`pad=${size.width}:${size.height}:0:0:black`);
  steps.push('scale=out_color_matrix=bt601:out_range=tv', 'format=yuv420p');
  return steps.join(',');
}
