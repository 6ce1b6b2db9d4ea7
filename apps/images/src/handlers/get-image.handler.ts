import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ImagesService } from '../services/images.service.js';
import type { ImageInfoInput } from '../validation/image-info.validation.js';
import { keyAccessOf } from './key-access.js';

/** GET /images/:id.json — one image with its category (not for an `sfw_only` key when the category is not SFW). */
export function getImageHandler(images: Pick<ImagesService, 'image'>): RequestHandler {
  return async (req, res) => {
    const { id } = validated<ImageInfoInput>(req);
    res.json({ success: true, data: await images.image(id, keyAccessOf(res)) });
  };
}
