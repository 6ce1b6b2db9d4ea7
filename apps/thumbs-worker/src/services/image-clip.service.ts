import type { ImageRepository } from '../repositories/image.repository.js';
import type { Clip, ClipRequest } from '../domain/clip.rules.js';
import { imageClipOf, imageClipPlan } from '../domain/clip-plan.rules.js';

/**
 * An image's clip: the repository probes it, the plan (`imageClipPlan`) refuses it or picks the
 * pages and the size, the repository decodes just those, and the frames are thinned to the clip.
 */
export class ImageClipService {
  constructor(private readonly images: Pick<ImageRepository, 'probe' | 'decode'>) {}

  /** The representative stretch of an animation, or the still, fitted into the request's box. */
  async readClip(file: string, request: ClipRequest): Promise<Clip> {
    const plan = imageClipPlan(await this.images.probe(file), request);
    return imageClipOf(await this.images.decode(file, plan.decode), plan, request);
  }
}
