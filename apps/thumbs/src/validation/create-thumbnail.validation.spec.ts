import { codeOf, runValidation } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { createThumbnailValidation } from './create-thumbnail.validation.js';

describe('create thumbnail validation', () => {
  it('accepts the four types exactly', async () => {
    for (const type of ['gif', 'png', 'webp', 'mp4']) {
      expect(await runValidation(createThumbnailValidation, { params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type } }), type).toMatchObject({ ok: true, input: { type } });
    }
  });

  it('refuses other types with 1064', async () => {
    for (const type of ['jpg', 'GIF', 'gifs', 'WEBP', 'webm', 'MP4', 'mov', 'thumbhash']) {
      expect(await codeOf(createThumbnailValidation, { params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type } }), type).toBe(1064);
    }
  });
});
