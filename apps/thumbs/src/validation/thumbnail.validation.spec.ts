import { describe, expect, it } from 'vitest';
import type { ValidationChain } from 'express-validator';
import { validate } from '@pawlink/service-kit';
import type { Request, Response } from 'express';
import { checkThumbnailValidation, createThumbnailValidation } from './thumbnail.validation.js';

/** Runs `validate(...chains)` on a request with these params; the error code it ends with, or the values it kept. */
async function run(chains: ValidationChain[], params: Record<string, string>): Promise<{ code?: number; params: Record<string, unknown> }> {
  const req = { params: { ...params }, query: {}, body: {} } as unknown as Request;
  const error = await new Promise<unknown>((resolve) => {
    void validate(...chains)(req, {} as Response, resolve);
  });
  return { code: (error as { code?: number } | undefined)?.code, params: req.params };
}

describe('thumbnail validation', () => {
  it('accepts an MD5 in any case, kept lower-case, and the two types exactly', async () => {
    expect(await run(checkThumbnailValidation, { first: 'D41D8CD98F00B204E9800998ECF8427E', second: 'gif' })).toMatchObject({
      code: undefined,
      params: { md5: 'd41d8cd98f00b204e9800998ecf8427e', type: 'gif' },
    });
    expect((await run(checkThumbnailValidation, { first: 'png', second: 'd41d8cd98f00b204e9800998ecf8427e' })).params).toMatchObject({ type: 'png' });
  });

  it('refuses other MD5s with 1063 and other types with 1064', async () => {
    for (const md5 of ['12345', 'd41d8cd98f00b204e9800998ecf8427', 'zz1d8cd98f00b204e9800998ecf8427e']) {
      expect((await run(checkThumbnailValidation, { first: md5, second: 'gif' })).code, md5).toBe(1063);
    }
    for (const type of ['jpg', 'GIF', 'gifs']) {
      expect((await run(createThumbnailValidation, { id: 'd41d8cd98f00b204e9800998ecf8427e', type })).code, type).toBe(1064);
    }
  });
});
