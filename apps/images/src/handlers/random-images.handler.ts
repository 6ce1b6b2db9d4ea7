import type { RandomImagesResponse } from '@pawlink/contracts';
import { validated } from '@pawlink/service-kit';
import type { RequestHandler } from 'express';
import { prefersImage } from '../http/content-negotiation.http.js';
import { imageBytesHeaders } from '../http/image-headers.http.js';
import { keyAccessOf } from '../http/key-access.http.js';
import { sendWholeFile } from '../http/send-whole-file.http.js';
import { NOTES } from '../services/notes.policy.js';
import type { RandomImagesService } from '../services/random-images.service.js';
import type { RandomImagesInput } from '../validation/random-images.validation.js';

/**
 * GET /:category (dotted or slashed) — random images as JSON, or the bytes of one image with its
 * `X-Yiffy-*` headers when the client prefers an image type over JSON.
 */
export function randomImagesHandler(randomImages: Pick<RandomImagesService, 'random' | 'randomFile'>): RequestHandler {
  return async (req, res) => {
    const { category, amount, sizeLimit, notes, type, exclude } = validated<RandomImagesInput>(req);
    const options = { ...keyAccessOf(res), type, exclude };
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept');
    if (prefersImage(req.headers.accept)) {
      const { image, file } = await randomImages.randomFile(category, sizeLimit, options);
      await sendWholeFile(req, res, file, { 'Content-Type': image.type, ...imageBytesHeaders(image) });
      return;
    }
    const body: RandomImagesResponse = {
      success: true,
      images: await randomImages.random(category, amount, sizeLimit, options),
      notes: notes === 'disabled' ? [] : [...NOTES],
    };
    res.json(body);
  };
}
