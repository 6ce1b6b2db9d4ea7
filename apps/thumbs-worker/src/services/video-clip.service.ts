import type { VideoRepository } from '../repositories/video.repository.js';
import type { Clip, ClipRequest, FrameSinkFor } from '../domain/clip.rules.js';
import { retryFromTheStart, videoClipOf, videoClipPlan } from '../domain/clip-plan.rules.js';
import { UnsupportedMediaError } from '../domain/thumbnail.errors.js';

/**
 * A video's clip: the repository probes it, the plan (`videoClipPlan`) refuses it or picks the
 * start, frame rate and size, and the repository decodes that stretch (again from the very start
 * when nothing came after the seek point).
 */
export class VideoClipService {
  constructor(private readonly videos: Pick<VideoRepository, 'probe' | 'decode'>) {}

  /**
   * Up to `clipSeconds` from the keyframe nearest a third in, at ≤ `maxFps`, fitted into the box.
   * Each frame also goes to `sinkFor`'s sink as soon as it is decoded (exactly the frames of the clip).
   */
  async readClip(file: string, request: ClipRequest, signal?: AbortSignal, sinkFor?: FrameSinkFor): Promise<Clip> {
    const plan = videoClipPlan(await this.videos.probe(file, signal), request);
    const sink = sinkFor?.({ width: plan.width, height: plan.height });
    let decoded = await this.videos.decode(file, plan, signal, sink);
    const again = retryFromTheStart(plan, decoded.frames.length);
    if (again) decoded = await this.videos.decode(file, again, signal, sink);
    if (decoded.frames.length === 0)
      throw new UnsupportedMediaError(`no video frames could be decoded: ${decoded.lastMessage}`);
    return videoClipOf(decoded, plan);
  }
}
