import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeFileAtomically } from '../src/media/atomic-file.js';
import { DOWNLOAD_DIR_PREFIX, removeStaleDownloadDirs, removeStaleTempFiles } from '../src/stale-temp-files.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-stale-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('writes through a hidden temp name and leaves only the final file', async () => {
  await writeFileAtomically(dir, 'abc.png', Buffer.from('png bytes'));
  expect(await readdir(dir)).toEqual(['abc.png']);
});

it('sweeps old temp files a killed worker left, keeps fresh ones and real thumbnails', async () => {
  const old = path.join(dir, '.0123456789abcdef0123456789abcdef.gif.a1b2c3d4e5f6.tmp');
  const fresh = path.join(dir, '.0123456789abcdef0123456789abcdef.png.0a1b2c3d4e5f.tmp');
  await writeFile(old, 'partial');
  await writeFile(fresh, 'partial');
  const hourAgo = new Date(Date.now() - 3_600_000);
  await utimes(old, hourAgo, hourAgo);
  expect(await removeStaleTempFiles(dir, 60_000)).toBe(1);
  expect((await readdir(dir)).sort()).toEqual([path.basename(fresh), 'abc.png'].sort());
});

it('sweeps old download directories a killed worker left in the temp dir, keeps fresh ones and anything else', async () => {
  const tmp = await mkdtemp(path.join(dir, 'tmpdir-'));
  const old = path.join(tmp, `${DOWNLOAD_DIR_PREFIX}Ab12Cd`);
  const fresh = path.join(tmp, `${DOWNLOAD_DIR_PREFIX}Ef34Gh`);
  const unrelated = path.join(tmp, 'pawlink-thumb-notours-really');
  for (const d of [old, fresh, unrelated]) {
    await mkdir(d);
    await writeFile(path.join(d, 'input.webm'), 'partial download');
  }
  const hourAgo = new Date(Date.now() - 3_600_000);
  await utimes(old, hourAgo, hourAgo);
  await utimes(unrelated, hourAgo, hourAgo);
  expect(await removeStaleDownloadDirs(tmp, 60_000)).toBe(1);
  expect((await readdir(tmp)).sort()).toEqual([path.basename(fresh), path.basename(unrelated)].sort());
});
