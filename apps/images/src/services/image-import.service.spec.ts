import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  FakeCategoryRepository,
  FakeImageFileRepository,
  FakeImageProbeRepository,
  FakeImageRepository,
  FakeRecordCacheRepository,
  FakeSizeIndexRepository,
  fakeImageBytes,
  fakeLogger,
  type FakeImageContent,
} from '../../test/fakes/repositories.fake.js';
import { imageRow } from '../../test/image-row.js';
import { ImageImportService, type ImportJob } from './image-import.service.js';
import { SizeIndexService } from './size-index.service.js';

const md5 = (bytes: Buffer): string => createHash('md5').update(bytes).digest('hex');
/** A ThumbHash made up from the bytes, until `failing` is set. */
const fakeThumbhashes = {
  failing: false,
  of(image: Buffer | string): Promise<string> {
    return this.failing ? Promise.reject(new Error('no hash')) : Promise.resolve(`hash of ${image.length} bytes`);
  },
};

const job = (category: string): ImportJob => ({
  category,
  creditsFor: (file) => ({
    artists: [`artist of ${file}`],
    sources: [],
    reportUrl: null,
    shortUrl: 'https://short.test/x',
  }),
});
const png = (seed: number, extra: FakeImageContent = {}): Buffer =>
  fakeImageBytes({ format: 'png', width: 30, height: 40, seed, ...extra });

describe('ImageImportService', () => {
  let images: FakeImageRepository;
  let index: FakeSizeIndexRepository;
  let files: FakeImageFileRepository;
  let probe: FakeImageProbeRepository;
  let records: FakeRecordCacheRepository;
  let imports: ImageImportService;
  /** Puts a file where the probe reads it. */
  const source = (file: string, bytes: Buffer): string => (probe.files.set(file, bytes), file);

  beforeEach(async () => {
    images = new FakeImageRepository();
    const categories = new FakeCategoryRepository(images);
    await categories.create('furry.hug', 'Furry > Hug');
    await categories.create('furry.boop', 'Furry > Boop');
    index = new FakeSizeIndexRepository();
    files = new FakeImageFileRepository();
    probe = new FakeImageProbeRepository();
    records = new FakeRecordCacheRepository();
    fakeThumbhashes.failing = false;
    const indexing = new SizeIndexService({ index, images, logger: fakeLogger() });
    imports = new ImageImportService({
      categories,
      images,
      files,
      probe,
      records,
      indexing,
      thumbhashes: fakeThumbhashes,
      now: () => new Date(42),
      failoverRetry: { attempts: 3, minDelayMs: 0, maxDelayMs: 0 },
    });
    // An index that exists, as after the service's start.
    index.sets.set('furry.hug', new Map());
  });

  it('stores a new image: the file placed, then the row with its credits, cached and indexed', async () => {
    const bytes = png(1);
    const outcome = await imports.importFile(job('furry.hug'), source('/in/a.png', bytes));
    const id = md5(bytes);
    expect(outcome).toEqual({ file: '/in/a.png', status: 'imported', id, ext: 'png', size: bytes.length });
    const row = {
      id,
      category: 'furry.hug',
      ext: 'png',
      mimeType: 'image/png',
      size: bytes.length,
      width: 30,
      height: 40,
      artists: ['artist of /in/a.png'],
      sources: [],
      reportUrl: null,
      shortUrl: 'https://short.test/x',
      createdAt: new Date(42),
      animated: false,
      thumbhash: `hash of ${bytes.length} bytes`,
    };
    expect(images.rows.get(id)).toEqual(row);
    expect(files.files.get(files.pathOf(id, 'png'))).toEqual(bytes);
    expect(records.rows.get(id)).toEqual(row);
    expect(index.sets.get('furry.hug')?.get(id)).toBe(bytes.length);
    expect(index.types.get(id)).toEqual(['png', 'still']);
  });

  it('indexes an image with more than one frame under its format and `animated`', async () => {
    const bytes = fakeImageBytes({ format: 'webp', width: 1, height: 1, animated: true });
    const outcome = await imports.importFile(job('furry.hug'), source('/in/a.webp', bytes));
    expect(outcome).toMatchObject({ status: 'imported', ext: 'webp' });
    expect(images.rows.get(md5(bytes))?.animated).toBe(true);
    expect(index.types.get(md5(bytes))).toEqual(['webp', 'animated']);
  });

  it('imports an image whose ThumbHash cannot be computed with a null one (the backfill command retries it)', async () => {
    fakeThumbhashes.failing = true;
    const bytes = png(9);
    expect(await imports.importFile(job('furry.hug'), source('/in/h.png', bytes))).toMatchObject({
      status: 'imported',
    });
    expect(images.rows.get(md5(bytes))?.thumbhash).toBeNull();
    expect(records.rows.get(md5(bytes))?.thumbhash).toBeNull();
  });

  it('takes the type from the bytes: a JPEG named .png is stored as jpg', async () => {
    const bytes = fakeImageBytes({ format: 'jpeg', width: 1, height: 1 });
    expect(await imports.importFile(job('furry.hug'), source('/in/photo.png', bytes))).toMatchObject({
      status: 'imported',
      ext: 'jpg',
    });
    expect(images.rows.get(md5(bytes))).toMatchObject({ ext: 'jpg', mimeType: 'image/jpeg' });
  });

  it('stores an image once, by the MD5 of its bytes, whatever the category asked the second time', async () => {
    const bytes = png(2);
    await imports.importFile(job('furry.hug'), source('/in/a.png', bytes));
    const again = await imports.importFile(job('furry.boop'), source('/in/copy.png', bytes));
    expect(again).toEqual({ file: '/in/copy.png', status: 'duplicate', id: md5(bytes), category: 'furry.hug' });
    expect(images.rows.size).toBe(1);
    expect(index.sets.get('furry.boop')).toBeUndefined();
  });

  it('repairs a known image imported again: indexes it again and puts a lost file back', async () => {
    const bytes = png(3);
    await imports.importFile(job('furry.hug'), source('/in/a.png', bytes));
    const id = md5(bytes);
    index.sets.get('furry.hug')!.delete(id);
    files.files.clear();
    expect(await imports.importFile(job('furry.hug'), '/in/a.png')).toMatchObject({ status: 'duplicate', id });
    expect(index.sets.get('furry.hug')?.get(id)).toBe(bytes.length);
    expect(files.files.get(files.pathOf(id, 'png'))).toEqual(bytes);
  });

  it('rebuilds a lost index whole when an import meets it, so the other images stay pickable', async () => {
    const other = imageRow('furry.hug', 7);
    images.rows.set(other.id, other);
    index.sets.delete('furry.hug');
    const bytes = png(4);
    await imports.importFile(job('furry.hug'), source('/in/a.png', bytes));
    expect(new Set(index.sets.get('furry.hug')?.keys())).toEqual(new Set([other.id, md5(bytes)]));
    expect(index.calls.rebuild).toBe(1);
  });

  it.each([
    ['an unreadable file', undefined, /^cannot read: ENOENT/],
    ['an empty file', Buffer.alloc(0), /^empty file$/],
    [
      'bytes that are no image',
      Buffer.from('hello'),
      /^not an image or truncated \(Input buffer contains unsupported image format\)$/,
    ],
    [
      'an SVG under an image name',
      fakeImageBytes({ format: 'svg', width: 10, height: 10 }),
      /^unsupported image format svg \(accepted: jpeg, png, gif, webp\)$/,
    ],
    ['an image without dimensions', fakeImageBytes({ format: 'png' }), /^image has no dimensions$/],
    [
      'a truncated image',
      png(5, { truncated: true }),
      /^not an image or truncated \(VipsJpeg: premature end of input file\)$/,
    ],
  ])('reports %s as failed and stores nothing', async (_label, bytes, reason) => {
    if (bytes) source('/in/x.png', bytes);
    const outcome = await imports.importFile(job('furry.hug'), '/in/x.png');
    expect(outcome).toEqual({ file: '/in/x.png', status: 'failed', reason: expect.stringMatching(reason) });
    expect(images.rows.size).toBe(0);
    expect(files.files.size).toBe(0);
  });

  it('reports a file that cannot be placed, and stores no row for it', async () => {
    files.placeError = new Error('ENOSPC: no space left on device');
    expect(await imports.importFile(job('furry.hug'), source('/in/a.png', png(6)))).toEqual({
      file: '/in/a.png',
      status: 'failed',
      reason: 'cannot write the media file: ENOSPC: no space left on device',
    });
    expect(images.rows.size).toBe(0);
  });

  it('removes the placed file again when the row cannot be inserted, and fails loudly', async () => {
    images.insertError = new Error('foreign key');
    await expect(imports.importFile(job('furry.gone'), source('/in/a.png', png(7)))).rejects.toThrow('foreign key');
    expect(files.files.size).toBe(0);
    expect(records.rows.size).toBe(0);
  });

  it('calls it a duplicate when another import stored the same bytes meanwhile', async () => {
    const bytes = png(8);
    images.insertRace = imageRow('furry.boop', 1, { id: md5(bytes) });
    expect(await imports.importFile(job('furry.hug'), source('/in/a.png', bytes))).toEqual({
      file: '/in/a.png',
      status: 'duplicate',
      id: md5(bytes),
      category: 'furry.boop',
    });
    expect(records.rows.size).toBe(0);
  });

  it('imports candidates one after the other, reporting each, and never stops at a bad one', async () => {
    const seen: string[] = [];
    const outcomes = await imports.importAll(
      job('furry.hug'),
      [
        { file: source('/in/a.png', png(9)) },
        { file: '/in/fifo', problem: 'not a regular file' },
        { file: '/in/gone.png' },
        { file: source('/in/b.png', png(10)) },
      ],
      (outcome) => seen.push(`${outcome.status} ${outcome.file}`),
    );
    expect(seen).toEqual(['imported /in/a.png', 'failed /in/fifo', 'failed /in/gone.png', 'imported /in/b.png']);
    expect(outcomes[1]).toEqual({ file: '/in/fifo', status: 'failed', reason: 'not a regular file' });
  });

  describe('a database connection lost under a file (a writer failing over)', () => {
    const connectionLost = (): Error =>
      Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' });

    it('tries the file again: an insert lost before it committed stores the image on the next try', async () => {
      images.insertError = connectionLost();
      const insert = images.insert.bind(images);
      images.insert = (row) => {
        const attempt = insert(row);
        images.insertError = undefined;
        return attempt;
      };
      const bytes = png(11);
      const outcomes = await imports.importAll(job('furry.hug'), [{ file: source('/in/a.png', bytes) }], () => {});
      expect(outcomes).toEqual([
        { file: '/in/a.png', status: 'imported', id: md5(bytes), ext: 'png', size: bytes.length },
      ]);
      expect(files.files.get(files.pathOf(md5(bytes), 'png'))).toEqual(bytes);
    });

    it('tries the file again: an insert that committed before the connection went is repaired, its file put back', async () => {
      const insert = images.insert.bind(images);
      let lost = false;
      images.insert = async (row) => {
        const inserted = await insert(row);
        if (lost) return inserted;
        lost = true;
        throw connectionLost();
      };
      const bytes = png(12);
      const outcomes = await imports.importAll(job('furry.hug'), [{ file: source('/in/a.png', bytes) }], () => {});
      expect(outcomes).toEqual([{ file: '/in/a.png', status: 'duplicate', id: md5(bytes), category: 'furry.hug' }]);
      expect(images.rows.has(md5(bytes))).toBe(true);
      expect(files.files.get(files.pathOf(md5(bytes), 'png'))).toEqual(bytes);
      expect(index.sets.get('furry.hug')?.get(md5(bytes))).toBe(bytes.length);
    });

    it('gives up with the error after the tries it is allowed', async () => {
      images.insertError = connectionLost();
      await expect(
        imports.importAll(job('furry.hug'), [{ file: source('/in/a.png', png(13)) }], () => {}),
      ).rejects.toThrow('Connection lost');
    });

    it('does not try again a failure another try cannot fix', async () => {
      let tries = 0;
      images.insert = () => {
        tries++;
        return Promise.reject(Object.assign(new Error('bad statement'), { code: 'ER_PARSE_ERROR' }));
      };
      await expect(
        imports.importAll(job('furry.hug'), [{ file: source('/in/a.png', png(14)) }], () => {}),
      ).rejects.toThrow('bad statement');
      expect(tries).toBe(1);
    });
  });

  it('sweeps temporary files older than an hour, and knows which categories exist', async () => {
    expect(await imports.removeInterruptedWrites()).toBe(2);
    expect(files.staleTempsAsked).toBe(3600_000);
    expect(await imports.categoryExists('furry.hug')).toBe(true);
    expect(await imports.categoryExists('furry.nope')).toBe(false);
  });
});
