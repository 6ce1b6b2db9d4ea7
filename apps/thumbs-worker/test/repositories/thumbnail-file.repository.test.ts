import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ThumbnailFileRepository } from '../../src/repositories/thumbnail-file.repository.js';

let dir: string;
let thumbnails: ThumbnailFileRepository;
const md5 = '0123456789abcdef0123456789abcdef';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-stale-'));
  thumbnails = new ThumbnailFileRepository(path.join(dir, 'thumbs'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('writes through a hidden temp name and leaves only the final file, named <md5>.<type>', async () => {
  await thumbnails.ensureDir();
  expect(await thumbnails.write(md5, 'png', Buffer.from('png bytes'))).toBe(path.join(thumbnails.dir, `${md5}.png`));
  expect(await readdir(thumbnails.dir)).toEqual([`${md5}.png`]);
  expect(await readFile(path.join(thumbnails.dir, `${md5}.png`), 'utf8')).toBe('png bytes');
});

it('publishes the ThumbHash as <md5>.thumbhash, and says which files are published', async () => {
  const other = 'fedcba9876543210fedcba9876543210';
  expect(await thumbnails.exists(other, 'webp')).toBe(false);
  expect(await thumbnails.hasThumbhash(other)).toBe(false);
  expect(await thumbnails.write(other, 'webp', Buffer.from('webp bytes'))).toBe(
    path.join(thumbnails.dir, `${other}.webp`),
  );
  expect(await thumbnails.writeThumbhash(other, Buffer.from([1, 2, 3]))).toBe(
    path.join(thumbnails.dir, `${other}.thumbhash`),
  );
  expect(await thumbnails.exists(other, 'webp')).toBe(true);
  expect(await thumbnails.exists(other, 'gif')).toBe(false);
  expect(await thumbnails.hasThumbhash(other)).toBe(true);
  expect([...(await readFile(path.join(thumbnails.dir, `${other}.thumbhash`)))]).toEqual([1, 2, 3]);
  await rm(path.join(thumbnails.dir, `${other}.webp`));
  await rm(path.join(thumbnails.dir, `${other}.thumbhash`));
});

it('sweeps old temp files a killed worker left, keeps fresh ones and real thumbnails', async () => {
  const old = path.join(thumbnails.dir, `.${md5}.gif.a1b2c3d4e5f6.tmp`);
  const fresh = path.join(thumbnails.dir, `.${md5}.png.0a1b2c3d4e5f.tmp`);
  await writeFile(old, 'partial');
  await writeFile(fresh, 'partial');
  const hourAgo = new Date(Date.now() - 3_600_000);
  await utimes(old, hourAgo, hourAgo);
  expect(await thumbnails.removeStaleTempFiles(60_000)).toBe(1);
  expect((await readdir(thumbnails.dir)).sort()).toEqual([path.basename(fresh), `${md5}.png`].sort());
});

it('is writable while a file can be created in its directory, leaving nothing behind; not when the directory is a file', async () => {
  const probeDir = path.join(dir, 'probe');
  const probed = new ThumbnailFileRepository(probeDir);
  await probed.ensureDir();
  expect(await probed.isWritable(1000)).toBe(true);
  expect(await readdir(probeDir)).toEqual([]);
  await rm(probeDir, { recursive: true });
  await writeFile(probeDir, 'not a directory');
  expect(await probed.isWritable(1000)).toBe(false);
});
