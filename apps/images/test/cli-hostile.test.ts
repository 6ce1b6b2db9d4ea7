import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRedis } from '@pawlink/service-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importJob, placeholderImage, startHarness, type Harness } from './support.js';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');

/** bin/admin category/images with hostile arguments and files: a clear report, exit 1 or 2, nothing half-written. */
describe('bin/admin category and images with hostile input', () => {
  let h: Harness;
  let inbox: string;
  let n = 0;
  const rows = async (): Promise<number> =>
    Number((await h.images.query<Array<{ n: string }>>('SELECT COUNT(*) AS n FROM images'))[0]!.n);
  const mediaFiles = async (): Promise<string[]> =>
    (await readdir(path.join(h.config.mediaDir, 'images')).catch(() => [] as string[])).sort();
  /** A fresh folder per test, so expectations do not depend on earlier tests. */
  const folder = async (): Promise<string> => {
    const dir = path.join(inbox, `case-${n++}`);
    await mkdir(dir, { recursive: true });
    return dir;
  };
  const importInto = (...args: string[]) => h.cli(['images', 'import', '--category', 'furry.hug', ...args]);
  const expectClean = (result: { stderr: string }): void => {
    expect(result.stderr).not.toMatch(/\n\s+at /);
  };

  beforeAll(async () => {
    h = await startHarness('img-cli-hostile');
    inbox = path.join(h.ctx.mediaDir, 'inbox');
    await mkdir(inbox, { recursive: true });
    await h.addCategory('furry.hug');
  });
  afterAll(async () => h.close());

  let before: { rows: number; files: string[] };
  beforeEach(async () => {
    before = { rows: await rows(), files: await mediaFiles() };
  });
  const expectNothingWritten = async (): Promise<void> => {
    expect(await rows()).toBe(before.rows);
    expect(await mediaFiles()).toEqual(before.files);
  };

  it('rejects truncated PNG, JPEG and GIF files, empty files and SVG under an image name (exit 1), importing the rest', async () => {
    const dir = await folder();
    for (const seed of [0, 1, 2]) {
      const { bytes, ext } = await placeholderImage(seed);
      await writeFile(path.join(dir, `cut-${seed}.${ext}`), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    }
    await writeFile(path.join(dir, 'empty.png'), Buffer.alloc(0));
    await writeFile(
      path.join(dir, 'vector.png'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    const good = await placeholderImage(3);
    await writeFile(path.join(dir, `good.${good.ext}`), good.bytes);
    const result = await importInto(dir);
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`failed ${path.join(dir, 'cut-0.png')}: not an image or truncated`);
    expect(result.stdout).toContain(`failed ${path.join(dir, 'cut-1.jpg')}: not an image or truncated`);
    expect(result.stdout).toContain(`failed ${path.join(dir, 'cut-2.gif')}: not an image or truncated`);
    expect(result.stdout).toContain(`failed ${path.join(dir, 'empty.png')}: empty file`);
    expect(result.stdout).toContain(`failed ${path.join(dir, 'vector.png')}: unsupported image format svg`);
    expect(result.stdout).toContain('Imported 1, skipped 0 duplicate(s), 5 failed');
    expect(await rows()).toBe(before.rows + 1);
    expect(await mediaFiles()).toEqual([...before.files, `${md5(good.bytes)}.${good.ext}`].sort());
  });

  it('reports a directory named like an image that holds no files, and a path that does not exist (exit 1)', async () => {
    const dir = await folder();
    await mkdir(path.join(dir, 'photo.png'));
    const empty = await importInto(path.join(dir, 'photo.png'));
    expectClean(empty);
    expect(empty.code).toBe(1);
    expect(empty.stdout).toContain(`failed ${path.join(dir, 'photo.png')}: no files in this folder`);
    const missing = await importInto(path.join(dir, 'nope.png'));
    expectClean(missing);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${path.join(dir, 'nope.png')} does not exist`);
    await expectNothingWritten();
  });

  it('follows a symlink that stays in the named folders, refuses one that leaves them, reports broken symlinks and special files, and survives a symlink loop', async () => {
    const dir = await folder();
    const real = await placeholderImage(4);
    const outside = path.join(inbox, `outside.${real.ext}`);
    await writeFile(outside, real.bytes);
    await symlink(outside, path.join(dir, `a-link.${real.ext}`));
    // A link to a file kept in the named folder (in a hidden folder, which is not searched itself).
    const kept = await placeholderImage(12);
    await mkdir(path.join(dir, '.store'));
    await writeFile(path.join(dir, '.store', `kept.${kept.ext}`), kept.bytes);
    await symlink(path.join('.store', `kept.${kept.ext}`), path.join(dir, `a-inside.${kept.ext}`));
    await symlink(path.join(dir, 'gone.png'), path.join(dir, 'b-broken.png'));
    // c-loop/up is the case folder itself: a loop that must end, not import anything twice.
    await mkdir(path.join(dir, 'c-loop'));
    await symlink('..', path.join(dir, 'c-loop', 'up'));
    execFileSync('mkfifo', [path.join(dir, 'd-fifo.png')]);
    // A folder elsewhere, linked into the named one: nothing in it is imported.
    const elsewhere = path.join(inbox, `elsewhere-${n}`);
    await mkdir(elsewhere);
    const far = await placeholderImage(13);
    await writeFile(path.join(elsewhere, `far.${far.ext}`), far.bytes);
    await symlink(elsewhere, path.join(dir, 'e-folder'));
    const result = await importInto(dir);
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`imported ${path.join(dir, `a-inside.${kept.ext}`)} → ${md5(kept.bytes)}`);
    expect(result.stdout).toContain(
      `failed ${path.join(dir, `a-link.${real.ext}`)}: symlink to ${await realpath(outside)}, outside the named folders`,
    );
    expect(result.stdout).toContain(
      `failed ${path.join(dir, 'e-folder')}: symlink to ${await realpath(elsewhere)}, outside the named folders`,
    );
    expect(result.stdout).toContain(`failed ${path.join(dir, 'b-broken.png')}: cannot read (ENOENT)`);
    expect(result.stdout).toContain(`failed ${path.join(dir, 'd-fifo.png')}: not a regular file`);
    expect(result.stdout).toContain(`skipped ${path.join(dir, '.store')}: hidden, not imported`);
    expect(result.stdout).not.toContain('duplicate of');
    expect(result.stdout).not.toContain(md5(real.bytes));
    expect(result.stdout).not.toContain(md5(far.bytes));
    const named = await importInto(path.join(dir, 'd-fifo.png'));
    expect(named.code).toBe(1);
    expect(named.stdout).toContain('not a regular file');
    expect(await rows()).toBe(before.rows + 1);
    // A symlink named on the command line is the operator's choice: it is followed.
    const chosen = await importInto(path.join(dir, `a-link.${real.ext}`));
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toContain(`imported ${path.join(dir, `a-link.${real.ext}`)} → ${md5(real.bytes)}`);
  });

  it('reports the hidden files and folders it skips, and imports none of them (exit 0)', async () => {
    const dir = await folder();
    const shown = await placeholderImage(14);
    const hidden = await placeholderImage(15);
    await writeFile(path.join(dir, `shown.${shown.ext}`), shown.bytes);
    await writeFile(path.join(dir, `.hidden.${hidden.ext}`), hidden.bytes);
    await writeFile(path.join(dir, '.DS_Store'), 'Finder');
    await mkdir(path.join(dir, '.git'));
    await writeFile(path.join(dir, '.git', `inside.${hidden.ext}`), hidden.bytes);
    const result = await importInto(dir);
    expectClean(result);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`skipped ${path.join(dir, '.DS_Store')}: hidden, not imported`);
    expect(result.stdout).toContain(`skipped ${path.join(dir, '.git')}: hidden, not imported`);
    expect(result.stdout).toContain(`skipped ${path.join(dir, `.hidden.${hidden.ext}`)}: hidden, not imported`);
    expect(result.stdout).toContain(
      'Imported 1, skipped 0 duplicate(s), 0 failed, into furry.hug. 3 hidden file(s) or folder(s) not imported.',
    );
    expect(result.stdout).not.toContain(md5(hidden.bytes));
    expect(await rows()).toBe(before.rows + 1);
  });

  it.each([
    ['not JSON', 'not json'],
    ['an array', '[1, 2]'],
    ['artists of the wrong type', JSON.stringify({ 'x.png': { artists: [1] } })],
    ['a reportURL of the wrong type', JSON.stringify({ 'x.png': { reportURL: 5 } })],
    ['sources of the wrong type', JSON.stringify({ 'x.png': { sources: 'https://example.com' } })],
  ])('refuses a sidecar with %s before importing anything (exit 1)', async (_label, content) => {
    const dir = await folder();
    const image = await placeholderImage(5);
    await writeFile(path.join(dir, 'x.png'), image.bytes);
    const sidecar = path.join(inbox, `sidecar-${n}.json`);
    await writeFile(sidecar, content);
    const result = await importInto('--meta', sidecar, dir);
    expectClean(result);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Cannot use the sidecar ${sidecar}`);
    await expectNothingWritten();
  });

  it('refuses a sidecar that is a directory, missing, empty, a FIFO or a device (exit 1, without hanging)', async () => {
    const dir = await folder();
    await writeFile(path.join(dir, 'empty.json'), '');
    execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
    for (const sidecar of [
      dir,
      path.join(dir, 'missing.json'),
      path.join(dir, 'empty.json'),
      path.join(dir, 'fifo.json'),
      '/dev/zero',
    ]) {
      const result = await importInto('--meta', sidecar, dir);
      expectClean(result);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Cannot use the sidecar');
    }
    await expectNothingWritten();
  });

  it.each([
    [['category', 'add', 'furry.x', '--name', 'Furry > X\u001b[31m']],
    [['category', 'add', 'furry.x', '--name', 'Furry > \u0000']],
    [['category', 'add', 'furry.x', '--name', ' > ']],
    [['category', 'add', 'furry.x', '--name', `Furry > ${'x'.repeat(300)}`]],
    [['category', 'add', '../etc.passwd', '--name', 'A > B']],
    [['category', 'add', 'furry.x', '--name', 'A > B', 'extra']],
    [['category', 'disable', 'furry.hug', '--comment', 'line\nbreak']],
    [['category', 'disable', 'furry.hug', '--comment', 'x'.repeat(501)]],
    [['category', 'enable']],
    [['images', 'import', '--category', 'furry.hug', '--artist', 'Bell\u0007', 'x.png']],
    [['images', 'import', '--category', 'furry.hug', '--source', 'ftp://example.com/x', 'x.png']],
    [['images', 'import', '--category', 'furry.hug']],
    [['images', 'remove', '../../etc/passwd']],
    [['images', 'reindex', 'Not A Key']],
  ])('answers %j with a usage error (exit 2)', async (args) => {
    const result = await h.cli(args);
    expectClean(result);
    expect(result.code).toBe(2);
    await expectNothingWritten();
    expect(await h.repositories.categories.find('furry.x')).toBeNull();
  });

  it('puts a lost media file back when the same file is imported again', async () => {
    const image = await placeholderImage(8);
    const file = path.join(inbox, `restore.${image.ext}`);
    await writeFile(file, image.bytes);
    expect((await importInto(file)).code).toBe(0);
    const placed = path.join(h.config.mediaDir, 'images', `${md5(image.bytes)}.${image.ext}`);
    await rm(placed);
    const again = await importInto(file);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('duplicate of');
    expect(md5(await readFile(placed))).toBe(md5(image.bytes));
  });

  it('sweeps temporary files an interrupted import left behind, but not young ones', async () => {
    const dir = path.join(h.config.mediaDir, 'images');
    await mkdir(dir, { recursive: true });
    // The temporary names of @pawlink/service-kit/files' atomic writes: `.<name>.<12 hex>.tmp`.
    const stale = path.join(dir, `.${'a'.repeat(32)}.png.0123456789ab.tmp`);
    const young = path.join(dir, `.${'b'.repeat(32)}.png.fedcba987654.tmp`);
    await writeFile(stale, 'half a file');
    await writeFile(young, 'being written');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    const image = await placeholderImage(9);
    const file = path.join(inbox, `sweep.${image.ext}`);
    await writeFile(file, image.bytes);
    const result = await importInto(file);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Removed 1 temporary file(s) left by an interrupted import.');
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(young)).toBe(true);
    await rm(young);
  });

  it('stops before importing anything when Redis is unreachable (exit 1, one clear line)', async () => {
    const image = await placeholderImage(10);
    const file = path.join(inbox, `redis-down.${image.ext}`);
    await writeFile(file, image.bytes);
    const down = createRedis({ url: 'redis://127.0.0.1:1', prefix: h.config.redis.prefix }, { name: 'down' });
    try {
      for (const args of [
        ['images', 'import', '--category', 'furry.hug', file],
        ['images', 'remove', md5(image.bytes)],
        ['images', 'reindex'],
      ]) {
        const result = await h.cli(args, { redis: down });
        expectClean(result);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('Redis (REDIS_URL) is unreachable');
      }
    } finally {
      down.disconnect();
    }
    await expectNothingWritten();
  });

  it('removes the placed file when the row cannot be inserted', async () => {
    const image = await placeholderImage(7);
    const file = path.join(inbox, `orphan.${image.ext}`);
    await writeFile(file, image.bytes);
    // No such category: the foreign key refuses the row after the file was placed.
    await expect(h.container.imports.importFile(importJob('furry.gone'), file)).rejects.toThrow();
    await expectNothingWritten();
  });
});
