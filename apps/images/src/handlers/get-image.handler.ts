import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ImagesService } from '../services/images.service.js';
import type { ImageInfoInput } from '../validation/image-info.validation.js';

/** GET /images/:id.json — one image with its category. */
export function getImageHandler(images: Pick<ImagesService, 'image'>): RequestHandler {
  return async (req, res) => {
    const { id } = validated<ImageInfoInput>(req);
    res.json({ success: true, data: await images.image(id) });
  };
}
