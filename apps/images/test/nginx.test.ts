import { createHash } from 'node:crypto';
import { request, startNginx, type StartedNginx } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './support.js';

describe('image files served by the real nginx', () => {
  let h: Harness;
  let nginx: StartedNginx;
  beforeAll(async () => {
    h = await startHarness('img-nginx', async (ctx) => {
      nginx = await startNginx({ mediaDir: ctx.mediaDir });
      return { IMAGES_MEDIA_URL: `${nginx.baseUrl}/images` };
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    await h?.close();
  });

  it('serves the file at the record url, and its MD5 is the id', async () => {
    await h.addCategory('furry.hug');
    const image = await h.addImage('furry.hug', 5);
    const info = await request(`${h.url}/images/${image.id}.json`);
    expect(info.body.data.url).toBe(`${nginx.baseUrl}/images/${image.id}.${image.ext}`);
    const res = await fetch(info.body.data.url as string);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(createHash('md5').update(bytes).digest('hex')).toBe(image.id);
  });
});
