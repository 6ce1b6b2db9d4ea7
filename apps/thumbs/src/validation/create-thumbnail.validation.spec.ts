import { codeOf, runValidation } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { createThumbnailValidation } from './create-thumbnail.validation.js';

describe('create thumbnail validation', () => {
  it('accepts the three types exactly', async () => {
    expect(await runValidation(createThumbnailValidation, { params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type: 'webp' } })).toMatchObject({ ok: true, input: { type: 'webp' } });
  });

  it('refuses other types with 1064', async () => {
    for (const type of ['jpg', 'GIF', 'gifs', 'WEBP', 'webm', 'thumbhash']) {
      expect(await codeOf(createThumbnailValidation, { params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type } }), type).toBe(1064);
    }
  });
});
