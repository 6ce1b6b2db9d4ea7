import type { ClipStart, FrameSink } from '../domain/clip.rules.js';
import type { DecodedFrames, VideoDecode, VideoProbe } from '../domain/clip-plan.rules.js';
import { UnsupportedMediaError } from '../domain/thumbnail.errors.js';
import { runTool } from './tool-process.repository.js';

/** A decode's frames, and ffmpeg's last message (why there are none, when there are none). */
export interface DecodedVideo extends DecodedFrames {
  lastMessage: string;
}

export interface FfmpegTools {
  ffmpegPath: string;
  ffprobePath: string;
}

/**
 * How far into a video ffprobe lists packets, for the keyframes. A clip starts about a third in,
 * so a video up to three times this long gets a keyframe-aligned clip; a longer one is decoded
 * from the keyframe before its representative start, as it would be without the list.
 */
const KEYFRAME_SCAN_SECONDS = 600;

/** ffprobe's answer: a line per packet (~40 bytes) for `KEYFRAME_SCAN_SECONDS`, even at 240 fps. */
const PROBE_OUTPUT_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Added to a keyframe's time for the seek: ffmpeg seeks to the keyframe at or before the time it
 * is given, and the printed time may be rounded down past the keyframe itself.
 */
const PAST_KEYFRAME_SECONDS = 0.001;

/*
 * Input options for ffprobe and ffmpeg. Left to itself, ffmpeg picks the demuxer from the bytes,
 * so a "webm" that is really an HLS playlist or an ffconcat script would make it open other
 * files on this host (another job's download, anything with a media extension) and we would
 * publish their thumbnail. Only the container demuxers of the board's video types are allowed,
 * and only the local file protocol.
 */
const SAFE_INPUT = ['-protocol_whitelist', 'file', '-format_whitelist', 'matroska,webm,mov,mp4,m4a,3gp,3g2,mj2'];

/**
 * ffmpeg's last stderr line, the one that says what went wrong. It becomes the job's failure
 * reason, which the API shows to clients, so our temp path in it is replaced by "input".
 */
const lastLine = (text: string, file: string): string =>
  (text.trim().split('\n').filter(Boolean).pop() ?? 'no details').replaceAll(file, 'input');

const rate = (value: unknown): number => {
  if (typeof value !== 'string') return Number.NaN;
  const [num, den] = value.split('/').map(Number);
  return num !== undefined && den !== undefined && den > 0 && num > 0 ? num / den : Number.NaN;
};

/** ffmpeg's seek options for a clip's start (none at the very start). */
const seekTo = (start: ClipStart): string[] =>
  start.seconds === 0
    ? []
    : start.atKeyframe
      ? ['-ss', (start.seconds + PAST_KEYFRAME_SECONDS).toFixed(3), '-noaccurate_seek']
      : ['-ss', start.seconds.toFixed(3)];

/** Cuts a raw video stream into frames of `frameBytes` and hands each complete one to `sink`. */
function framesTo(sink: FrameSink, frameBytes: number): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= frameBytes) {
      sink.write(pending.subarray(0, frameBytes));
      pending = pending.subarray(frameBytes);
    }
  };
}

/** Videos read with ffprobe and ffmpeg (FFPROBE_PATH, FFMPEG_PATH); unreadable input is an UnsupportedMediaError. */
export class VideoRepository {
  constructor(private readonly tools: FfmpegTools) {}

  /**
   * Reads the first video stream's geometry, length, frame rate and keyframe times with ffprobe.
   * The keyframes come from the packets' flags: the file is read, not decoded (a few ms).
   */
  async probe(file: string, signal?: AbortSignal): Promise<VideoProbe> {
    const result = await runTool(
      this.tools.ffprobePath,
      [
        '-v',
        'error',
        ...SAFE_INPUT,
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=width,height,avg_frame_rate,r_frame_rate,duration,sample_aspect_ratio:stream_tags=rotate:stream_side_data=rotation:format=duration,start_time:packet=pts_time,flags',
        '-read_intervals',
        `%+${KEYFRAME_SCAN_SECONDS}`,
        '-of',
        'json=compact=1',
        file,
      ],
      { signal, maxStdoutBytes: PROBE_OUTPUT_LIMIT_BYTES },
    );
    let parsed: {
      streams?: Array<Record<string, unknown>>;
      format?: { duration?: string; start_time?: string };
      packets?: Array<{ pts_time?: string; flags?: string }>;
    };
    try {
      parsed = JSON.parse(result.stdout.toString()) as typeof parsed;
    } catch {
      throw new UnsupportedMediaError(`not a readable video: ${lastLine(result.stderr, file)}`);
    }
    const refused = /\[([^\]@]+?) @ [^\]]*\] Format not on whitelist/.exec(result.stderr);
    if (refused)
      throw new UnsupportedMediaError(
        `not a readable video: the file is ${refused[1]!.trim()}, not a WebM or MP4 container`,
      );
    const stream = parsed.streams?.[0];
    if (result.code !== 0 || !stream)
      throw new UnsupportedMediaError(
        `not a readable video: ${result.code !== 0 ? lastLine(result.stderr, file) : 'no video stream'}`,
      );
    let width = Number(stream.width);
    let height = Number(stream.height);
    if (!(width > 0 && height > 0)) throw new UnsupportedMediaError('video has no frame size');
    const sar = typeof stream.sample_aspect_ratio === 'string' ? stream.sample_aspect_ratio.split(':').map(Number) : [];
    if (sar.length === 2 && sar[0]! > 0 && sar[1]! > 0 && sar[0] !== sar[1])
      width = Math.round((width * sar[0]!) / sar[1]!);
    const sideData = Array.isArray(stream.side_data_list)
      ? (stream.side_data_list as Array<{ rotation?: number }>)
      : [];
    const rotation = Number(
      (stream.tags as { rotate?: string } | undefined)?.rotate ??
        sideData.find((d) => d.rotation !== undefined)?.rotation ??
        0,
    );
    if (Math.abs(rotation) % 180 === 90) [width, height] = [height, width];
    const duration = Number(parsed.format?.duration ?? stream.duration);
    const fps = Number.isFinite(rate(stream.avg_frame_rate)) ? rate(stream.avg_frame_rate) : rate(stream.r_frame_rate);
    const startTime = Number(parsed.format?.start_time ?? 0);
    const offset = Number.isFinite(startTime) ? startTime : 0;
    const keyframes = (parsed.packets ?? [])
      .filter((packet) => packet.flags?.startsWith('K') === true)
      .map((packet) => Number(packet.pts_time) - offset)
      .filter((seconds) => Number.isFinite(seconds) && seconds >= 0)
      .sort((a, b) => a - b);
    return { width, height, duration: Number.isFinite(duration) ? duration : Number.NaN, fps, keyframes };
  }

  /**
   * Decodes the stretch asked for (`videoClipPlan`) as raw RGBA over a pipe: up to `seconds` from
   * `start`, at `fps`, scaled to the size, at most `maxFrames`. The seek comes before `-i`, so
   * ffmpeg jumps to a keyframe instead of decoding everything before it; at a keyframe it starts
   * there (`-noaccurate_seek`), elsewhere it decodes from the one before and drops the frames up to
   * the start. Each frame also goes to `sink` as soon as it is decoded.
   */
  async decode(file: string, decode: VideoDecode, signal?: AbortSignal, sink?: FrameSink): Promise<DecodedVideo> {
    const { width, height } = decode;
    const frameBytes = width * height * 4;
    const result = await runTool(
      this.tools.ffmpegPath,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        ...seekTo(decode.start),
        ...SAFE_INPUT,
        '-i',
        file,
        '-t',
        String(decode.seconds),
        '-map',
        '0:v:0',
        '-an',
        '-sn',
        '-dn',
        '-vf',
        `fps=${decode.fps.toFixed(3)},scale=w=${width}:h=${height}:flags=bilinear,setsar=1`,
        '-frames:v',
        String(decode.maxFrames),
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        'pipe:1',
      ],
      {
        signal,
        maxStdoutBytes: frameBytes * decode.maxFrames,
        onStdout: sink ? framesTo(sink, frameBytes) : undefined,
      },
    );
    const count = Math.floor(result.stdout.length / frameBytes);
    const frames: Buffer[] = [];
    for (let i = 0; i < count; i++) frames.push(result.stdout.subarray(i * frameBytes, (i + 1) * frameBytes));
    return { width, height, frames, lastMessage: lastLine(result.stderr, file) };
  }
}
