import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { keyAccessOf } from '../http/key-access.http.js';
import type { GetImageService } from '../services/get-image.service.js';
import type { GetImageInput } from '../validation/get-image.validation.js';

/** GET /images/:id.json — one image with its category (not for an `sfw_only` key when the category is not SFW). */
export function getImageHandler(getImage: Pick<GetImageService, 'image'>): RequestHandler {
  return async (req, res) => {
    const { id } = validated<GetImageInput>(req);
    res.json({ success: true, data: await getImage.image(id, keyAccessOf(res)) });
  };
}
