import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestContext, type TestContext } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageFileRepository } from '../../src/repositories/image-file.repository.js';

describe('ImageFileRepository (MEDIA_DIR/images)', () => {
  let ctx: TestContext;
  let files: ImageFileRepository;
  const id = 'a'.repeat(32);
  beforeAll(async () => {
    ctx = await createTestContext('img-repo-files');
    files = new ImageFileRepository(ctx.mediaDir);
  });
  afterAll(async () => ctx.cleanup());

  it('places a file under MEDIA_DIR/images as <id>.<ext>, leaving no temporary file', async () => {
    expect(await files.exists(id, 'png')).toBe(false);
    await files.place(id, 'png', Buffer.from('bytes'));
    expect(files.pathOf(id, 'png')).toBe(path.join(ctx.mediaDir, 'images', `${id}.png`));
    expect(await readFile(files.pathOf(id, 'png'), 'utf8')).toBe('bytes');
    expect(await files.exists(id, 'png')).toBe(true);
    expect(await readdir(path.join(ctx.mediaDir, 'images'))).toEqual([`${id}.png`]);
  });

  it('removes a file, and removing a missing one is no error', async () => {
    await files.remove(id, 'png');
    expect(existsSync(files.pathOf(id, 'png'))).toBe(false);
    await files.remove(id, 'png');
  });

  it('sweeps only temporary files older than asked', async () => {
    const dir = path.join(ctx.mediaDir, 'images');
    await mkdir(dir, { recursive: true });
    const stale = path.join(dir, `.${id}.png.0123456789ab.tmp`);
    const young = path.join(dir, `.${id}.gif.fedcba987654.tmp`);
    await writeFile(stale, 'half');
    await writeFile(young, 'half');
    const old = new Date(Date.now() - 2 * 3600_000);
    await utimes(stale, old, old);
    expect(await files.removeStaleTemps(3600_000)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(young)).toBe(true);
  });
});
