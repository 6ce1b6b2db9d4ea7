import { chainsOf, codeOf as codeOfChains, runValidation as runChains } from '@pawlink/service-kit';
import type { Request, Response } from 'express';
import type { ValidationChain } from 'express-validator';
import { describe, expect, it } from 'vitest';
import { loadThumbsConfig } from '../config.js';
import { putCheckSegmentsInOrder } from '../guards/check-segments.guard.js';
import { checkThumbnailEndpoint } from './check-thumbnail.endpoint.js';

/** The check's fields' chains, run as the route runs them: after its segments are put in order. */
const checkThumbnailValidation = chainsOf(checkThumbnailEndpoint.fields, loadThumbsConfig({}));
type CheckRequest = { params: Record<string, unknown> };
const inOrder = <R extends CheckRequest>(request: R): R => {
  putCheckSegmentsInOrder({ params: request.params } as unknown as Request, {} as Response, () => undefined);
  return request;
};
const runValidation = (chains: ValidationChain[], request: CheckRequest) => runChains(chains, inOrder(request));
const codeOf = (chains: ValidationChain[], request: CheckRequest) => codeOfChains(chains, inOrder(request));

describe('check thumbnail validation', () => {
  it('accepts an MD5 in any case, kept lower-case, and the four types exactly', async () => {
    expect(
      await runValidation(checkThumbnailValidation, {
        params: { md5: 'D41D8CD98F00B204E9800998ECF8427E', type: 'gif' },
      }),
    ).toEqual({
      ok: true,
      input: { md5: 'd41d8cd98f00b204e9800998ecf8427e', type: 'gif' },
    });
    // The segments the other way round (`/check/png/<md5>`): each lands where it belongs.
    expect(
      await runValidation(checkThumbnailValidation, {
        params: { md5: 'png', type: 'd41d8cd98f00b204e9800998ecf8427e' },
      }),
    ).toEqual({ ok: true, input: { md5: 'd41d8cd98f00b204e9800998ecf8427e', type: 'png' } });
    expect(
      await runValidation(checkThumbnailValidation, {
        params: { md5: 'webp', type: 'd41d8cd98f00b204e9800998ecf8427e' },
      }),
    ).toMatchObject({ input: { type: 'webp' } });
    expect(
      await runValidation(checkThumbnailValidation, {
        params: { md5: 'd41d8cd98f00b204e9800998ecf8427e', type: 'mp4' },
      }),
    ).toMatchObject({ ok: true, input: { type: 'mp4' } });
    expect(
      await runValidation(checkThumbnailValidation, {
        params: { md5: 'mp4', type: 'd41d8cd98f00b204e9800998ecf8427e' },
      }),
    ).toMatchObject({ ok: true, input: { type: 'mp4' } });
  });

  it('refuses other MD5s with 1063', async () => {
    for (const md5 of ['12345', 'd41d8cd98f00b204e9800998ecf8427', 'zz1d8cd98f00b204e9800998ecf8427e']) {
      expect(await codeOf(checkThumbnailValidation, { params: { md5: md5, type: 'gif' } }), md5).toBe(1063);
    }
  });
});
