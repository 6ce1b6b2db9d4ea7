import { beforeEach, describe, expect, it } from 'vitest';
import { byMd5, byPost, MD5, MEDIA, POST_MD5, refusal, thumbnailWorld } from '../../test/in-memory-thumbnails.js';
import { PostUnavailableError } from '../domain/post-lookup.errors.js';

let now = 0;
let { files, posts, askedFor, service } = thumbnailWorld(() => now);
beforeEach(() => {
  now = 1_700_000_000_000;
  ({ files, posts, askedFor, service } = thumbnailWorld(() => now));
});

describe('info', () => {
  it('answers the URL of each file that exists', async () => {
    files.add(MD5, 'gif');
    expect(await service.info(byMd5(MD5))).toEqual({
      urls: { gif: `${MEDIA}/${MD5}.gif`, png: null, webp: null, mp4: null },
      thumbhash: null,
    });
    files.add(MD5, 'webp');
    expect((await service.info(byMd5(MD5))).urls).toEqual({
      gif: `${MEDIA}/${MD5}.gif`,
      png: null,
      webp: `${MEDIA}/${MD5}.webp`,
      mp4: null,
    });
    files.add(MD5, 'mp4');
    expect((await service.info(byMd5(MD5))).urls).toMatchObject({ mp4: `${MEDIA}/${MD5}.mp4` });
  });

  it('answers the stored ThumbHash in base64, null while there is none', async () => {
    files.add(MD5, 'png');
    expect((await service.info(byMd5(MD5))).thumbhash).toBeNull();
    files.thumbhashes.set(MD5, Buffer.from([0x1b, 0x08, 0x0e, 0xff]));
    expect((await service.info(byMd5(MD5))).thumbhash).toBe('GwgO/w==');
  });

  it('resolves a post id through the board; an unknown one is 1062', async () => {
    files.add(POST_MD5, 'png');
    expect((await service.info(byPost(4242))).urls).toEqual({
      gif: null,
      png: `${MEDIA}/${POST_MD5}.png`,
      webp: null,
      mp4: null,
    });
    expect(await refusal(service.info(byPost(7)))).toEqual({
      code: 1062,
      message: 'Invalid post id: the board has no such post.',
    });
  });

  it('resolves a post id for its requester, so the board budget is shared fairly', async () => {
    await service.info(byPost(4242), { apiKeyId: 7, ip: '203.0.113.1' });
    await service.request(byPost(4242), 'gif', { apiKeyId: 8, ip: '203.0.113.2' });
    await service.info(byMd5(MD5), { apiKeyId: 9 });
    expect(askedFor).toEqual([
      { apiKeyId: 7, ip: '203.0.113.1' },
      { apiKeyId: 8, ip: '203.0.113.2' },
    ]);
  });

  it('lets a board that cannot answer reach the caller as PostUnavailableError', async () => {
    posts.set(5151, new PostUnavailableError('image board unavailable'));
    await expect(service.info(byPost(5151))).rejects.toBeInstanceOf(PostUnavailableError);
  });
});
