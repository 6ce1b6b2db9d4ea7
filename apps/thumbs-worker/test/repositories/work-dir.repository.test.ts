import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DOWNLOAD_DIR_PREFIX, WorkDirRepository } from '../../src/repositories/work-dir.repository.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-stale-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('gives each job a directory of its own, and removes it with its download', async () => {
  const tmp = await mkdtemp(path.join(dir, 'jobs-'));
  const workDirs = new WorkDirRepository(tmp);
  const [a, b] = [await workDirs.create(), await workDirs.create()];
  expect(path.dirname(a.file('input.webm'))).not.toBe(path.dirname(b.file('input.webm')));
  await writeFile(a.file('input.webm'), 'download');
  expect((await stat(a.file('input.webm'))).size).toBe(8);
  await a.remove();
  expect(await readdir(tmp)).toEqual([path.basename(path.dirname(b.file('x')))]);
  await b.remove();
  expect(await readdir(tmp)).toEqual([]);
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
  expect(await new WorkDirRepository(tmp).removeStale(60_000)).toBe(1);
  expect((await readdir(tmp)).sort()).toEqual([path.basename(fresh), path.basename(unrelated)].sort());
});

it('sweeps the directories it creates once they are old', async () => {
  const tmp = await mkdtemp(path.join(dir, 'own-'));
  const workDirs = new WorkDirRepository(tmp);
  await workDirs.create();
  expect(await workDirs.removeStale(0, Date.now() + 1000)).toBe(1);
  expect(await readdir(tmp)).toEqual([]);
});
