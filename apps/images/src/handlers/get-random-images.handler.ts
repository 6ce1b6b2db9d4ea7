import type { RandomImagesResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import type { ImagesService } from '../services/images.service.js';
import { NOTES } from '../services/notes.policy.js';
import type { RandomImagesInput } from '../validation/random.validation.js';
import { prefersImage } from './content-negotiation.js';
import { imageBytesHeaders } from './image-headers.js';
import { keyAccessOf } from './key-access.js';
import { sendWholeFile } from './send-whole-file.js';

/**
 * GET /:category (dotted or slashed) — random images as JSON, or the bytes of one image with its
 * `X-Yiffy-*` headers when the client prefers an image type over JSON.
 */
export function getRandomImagesHandler(images: Pick<ImagesService, 'random' | 'randomFile'>): RequestHandler {
  return async (req, res) => {
    const { category, amount, sizeLimit, notes, type, exclude } = validated<RandomImagesInput>(req);
    const options = { ...keyAccessOf(res), type, exclude };
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept');
    if (prefersImage(req.headers.accept)) {
      const { image, file } = await images.randomFile(category, sizeLimit, options);
      await sendWholeFile(req, res, file, { 'Content-Type': image.type, ...imageBytesHeaders(image) });
      return;
    }
    const body: RandomImagesResponse = { success: true, images: await images.random(category, amount, sizeLimit, options), notes: notes === 'disabled' ? [] : [...NOTES] };
    res.json(body);
  };
}
