import { chainsOf, codeOf, runValidation } from '@pawlink/service-kit';
import { describe, expect, it } from 'vitest';
import { loadThumbsConfig } from '../config.js';
import { createThumbnailEndpoint } from './create-thumbnail.endpoint.js';

/** The chains PUT /:id/:type runs, made from its fields. */
const createThumbnailValidation = chainsOf(
  createThumbnailEndpoint.fields,
  loadThumbsConfig({}),
  createThumbnailEndpoint.onlyBodyFieldsOf,
);

describe('create thumbnail validation', () => {
  it('accepts the four types exactly', async () => {
    for (const type of ['gif', 'png', 'webp', 'mp4']) {
      expect(
        await runValidation(createThumbnailValidation, { params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type } }),
        type,
      ).toMatchObject({ ok: true, input: { type } });
    }
  });

  it('refuses other types with 1064', async () => {
    for (const type of ['jpg', 'GIF', 'gifs', 'WEBP', 'webm', 'MP4', 'mov', 'thumbhash']) {
      expect(
        await codeOf(createThumbnailValidation, { params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type } }),
        type,
      ).toBe(1064);
    }
  });

  it('takes an http(s) callbackURL as a URL', async () => {
    const outcome = await runValidation<{ callbackURL?: URL }>(createThumbnailValidation, {
      params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type: 'png' },
      query: { callbackURL: 'https://bot.example.com/hook' },
    });
    expect(outcome.ok && outcome.input.callbackURL?.href).toBe('https://bot.example.com/hook');
  });

  it('refuses a callbackURL of another scheme, too long, or given twice with 1085', async () => {
    for (const callbackURL of [
      'ftp://bot.example.com/hook',
      `https://bot.example.com/${'a'.repeat(2048)}`,
      'not a url',
      ['https://a.example/', 'https://b.example/'],
    ]) {
      expect(
        await codeOf(createThumbnailValidation, {
          params: { id: 'd41d8cd98f00b204e9800998ecf8427e', type: 'png' },
          query: { callbackURL },
        }),
        String(callbackURL),
      ).toBe(1085);
    }
  });
});
