import { createHash, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import type { ImageRow } from '../db/image.entity.js';
import { IMAGE_FORMATS } from '../domain/image-format.js';
import { imageFilePath, imagesDir } from '../domain/media-path.js';
import type { CategoryRepository } from '../repositories/category.repository.js';
import type { ImageRepository } from '../repositories/image.repository.js';
import type { RecordCache } from '../repositories/record-cache.js';
import type { SizeIndex } from '../repositories/size-index.js';
import { textProblem, urlProblem } from './options.js';

/** Per-file details a sidecar JSON may give, keyed by file name (or path relative to the cwd). */
export interface SidecarEntry {
  artists?: string[];
  sources?: string[];
  reportURL?: string | null;
  shortURL?: string | null;
}
export type Sidecar = Record<string, SidecarEntry>;

export interface ImportDeps {
  categories: CategoryRepository;
  images: ImageRepository;
  sizeIndex: SizeIndex;
  records: RecordCache;
  mediaDir: string;
}

export interface ImportOptions {
  category: string;
  artists: string[];
  sources: string[];
  sidecar?: Sidecar;
  /** Files never imported even when inside a given folder (the sidecar itself). */
  exclude?: string[];
}

export type ImportOutcome =
  | { file: string; status: 'imported'; id: string; ext: string; size: number }
  | { file: string; status: 'duplicate'; id: string; category: string }
  | { file: string; status: 'failed'; reason: string };

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Validates a parsed sidecar with the rules of the command-line flags; throws a message naming the bad entry. */
export function parseSidecar(json: unknown): Sidecar {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('the sidecar must be a JSON object of file name → {artists, sources}.');
  for (const [file, entry] of Object.entries(json as Record<string, unknown>)) {
    const fail = (detail: string): never => {
      throw new Error(`sidecar entry "${file.slice(0, 200)}": ${detail}`);
    };
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) fail('must be an object.');
    const { artists, sources, reportURL, shortURL } = entry as Record<string, unknown>;
    if (artists !== undefined) {
      if (!isStringArray(artists)) fail('artists must be an array of strings.');
      for (const artist of artists as string[]) {
        const problem = textProblem(artist, 200);
        if (problem) fail(`artist ${JSON.stringify(artist.slice(0, 50))} ${problem}`);
      }
    }
    if (sources !== undefined) {
      if (!isStringArray(sources)) fail('sources must be an array of strings.');
      for (const source of sources as string[]) {
        const problem = urlProblem(source);
        if (problem) fail(`source ${JSON.stringify(source.slice(0, 50))}: ${problem}`);
      }
    }
    for (const [name, value] of [['reportURL', reportURL] as const, ['shortURL', shortURL] as const]) {
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') fail(`${name} must be a string or null.`);
      const problem = urlProblem(value as string);
      if (problem) fail(`${name}: ${problem}`);
    }
  }
  return json as Sidecar;
}

/** A file to import, or an entry found in a folder that cannot be one (reported as failed). */
export interface Candidate {
  file: string;
  problem?: string;
}

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Files named on the command line, folders expanded recursively in name order (hidden entries
 * skipped). A named path that does not exist throws, so a typo imports nothing; inside folders,
 * broken symlinks and special files become failed candidates and the rest still imports.
 * Folders are visited once by real path, so a symlink loop ends.
 */
export async function expandPaths(paths: readonly string[], exclude: readonly string[] = []): Promise<Candidate[]> {
  const skip = new Set(exclude.map((p) => path.resolve(p)));
  const seenFolders = new Set<string>();
  const candidates: Candidate[] = [];
  const visit = async (resolved: string, named: boolean): Promise<void> => {
    if (skip.has(resolved)) return;
    let info: Stats;
    try {
      info = await stat(resolved);
    } catch (error) {
      if (named) throw new Error(errorCode(error) === 'ENOENT' ? `${resolved} does not exist.` : `cannot read ${resolved} (${errorCode(error)}).`, { cause: error });
      candidates.push({ file: resolved, problem: `cannot read (${errorCode(error)})` });
      return;
    }
    if (info.isDirectory()) {
      const real = await realpath(resolved);
      if (seenFolders.has(real)) return;
      seenFolders.add(real);
      const before = candidates.length;
      // Hidden files in a folder (.DS_Store, editor swap files) are not candidates; named files always are.
      const entries = (await readdir(resolved)).filter((entry) => !entry.startsWith('.')).sort();
      for (const entry of entries) await visit(path.join(resolved, entry), false);
      if (named && candidates.length === before) candidates.push({ file: resolved, problem: 'no files in this folder' });
    } else if (info.isFile()) {
      candidates.push({ file: resolved });
    } else {
      candidates.push({ file: resolved, problem: 'not a regular file' });
    }
  };
  for (const target of paths) await visit(path.resolve(target), true);
  return candidates;
}

function sidecarEntry(sidecar: Sidecar | undefined, file: string): SidecarEntry | undefined {
  if (!sidecar) return undefined;
  // Own keys only: a file named "constructor" must not find Object.prototype.constructor.
  for (const key of [path.basename(file), path.relative(process.cwd(), file), file]) {
    if (Object.hasOwn(sidecar, key)) return sidecar[key];
  }
  return undefined;
}

const TEMP_PREFIX = '.tmp-';

/** Writes under a temporary name in the same directory, then renames: nginx never serves half a file. */
async function placeAtomically(target: string, bytes: Buffer): Promise<void> {
  const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Removes temporary files that an interrupted import (Ctrl-C, a crash) left in MEDIA_DIR/images.
 * Only old ones: a younger one may belong to an import running right now. Returns how many.
 */
export async function sweepStaleTemps(mediaDir: string, maxAgeMs = 60 * 60 * 1000, now = Date.now()): Promise<number> {
  const dir = imagesDir(mediaDir);
  const entries = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const entry of entries.filter((name) => name.startsWith(TEMP_PREFIX))) {
    const file = path.join(dir, entry);
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile() && now - info.mtimeMs > maxAgeMs) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Imports one file: MD5 of the bytes, type and dimensions from sharp, file placed atomically,
 * row inserted, size index updated. An exact duplicate (same MD5) is skipped.
 */
export async function importFile(deps: ImportDeps, options: ImportOptions, file: string, now = new Date()): Promise<ImportOutcome> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    return { file, status: 'failed', reason: `cannot read: ${(error as Error).message}` };
  }
  if (bytes.length === 0) return { file, status: 'failed', reason: 'empty file' };
  // sharp's first line says what is wrong (unsupported format, premature end, pixel limit…).
  const failure = (error: unknown): ImportOutcome => ({ file, status: 'failed', reason: `not an image or truncated (${String((error as Error).message).split('\n')[0]!.slice(0, 200)})` });
  const image = sharp(bytes, { animated: true, limitInputPixels: 268_402_689, failOn: 'truncated' });
  let metadata: Metadata;
  try {
    metadata = await image.metadata();
  } catch (error) {
    return failure(error);
  }
  const format = metadata.format ? IMAGE_FORMATS[metadata.format] : undefined;
  if (!format) return { file, status: 'failed', reason: `unsupported image format ${metadata.format ?? 'unknown'} (accepted: ${Object.keys(IMAGE_FORMATS).join(', ')})` };
  const width = metadata.width;
  // For animations sharp reports the height of all frames stacked; one frame is pageHeight.
  const height = metadata.pageHeight ?? metadata.height;
  if (!width || !height) return { file, status: 'failed', reason: 'image has no dimensions' };
  try {
    // metadata() reads only the header; decoding every pixel is what finds a truncated or
    // corrupt body, which would otherwise be served as a broken image forever.
    await image.stats();
  } catch (error) {
    return failure(error);
  }

  const id = createHash('md5').update(bytes).digest('hex');
  const existing = await deps.images.findById(id);
  if (existing) {
    // Re-importing is also how an operator repairs an image: after a Redis failure (index it
    // again) or a lost media file (put the same bytes back).
    await indexImage(deps, existing.category, id, existing.size);
    const placed = imageFilePath(deps.mediaDir, id, existing.ext);
    if (!(await stat(placed).then((info) => info.isFile(), () => false))) {
      try {
        await mkdir(imagesDir(deps.mediaDir), { recursive: true });
        await placeAtomically(placed, bytes);
      } catch (error) {
        return { file, status: 'failed', reason: `cannot write the media file: ${(error as Error).message}` };
      }
    }
    return { file, status: 'duplicate', id, category: existing.category };
  }

  const entry = sidecarEntry(options.sidecar, file);
  const row: ImageRow = {
    id,
    category: options.category,
    ext: format.ext,
    mimeType: format.mime,
    size: bytes.length,
    width,
    height,
    artists: entry?.artists ?? options.artists,
    sources: entry?.sources ?? options.sources,
    reportUrl: entry?.reportURL ?? null,
    shortUrl: entry?.shortURL ?? null,
    createdAt: now,
  };
  const target = imageFilePath(deps.mediaDir, id, format.ext);
  try {
    await mkdir(imagesDir(deps.mediaDir), { recursive: true });
    await placeAtomically(target, bytes);
  } catch (error) {
    return { file, status: 'failed', reason: `cannot write the media file: ${(error as Error).message}` };
  }
  let inserted: boolean;
  try {
    inserted = await deps.images.insert(row);
  } catch (error) {
    // No row refers to the file (none existed above): leave no orphan behind.
    await rm(target, { force: true });
    throw error;
  }
  if (!inserted) {
    const other = await deps.images.findById(id);
    return { file, status: 'duplicate', id, category: other?.category ?? options.category };
  }
  await deps.records.setMany([row]);
  await indexImage(deps, options.category, id, row.size);
  return { file, status: 'imported', id, ext: format.ext, size: row.size };
}

/** Into the category's size index, rebuilding it from MySQL (which has the new row) when it is missing. */
async function indexImage(deps: ImportDeps, db: string, id: string, size: number): Promise<void> {
  if (!(await deps.sizeIndex.addIfIndexed(db, id, size))) await deps.sizeIndex.rebuild(db, deps.images.idsAndSizes(db));
}

/** Imports candidates one after the other, reporting each outcome; never stops at a bad file. */
export async function importFiles(deps: ImportDeps, options: ImportOptions, candidates: readonly Candidate[], onOutcome: (outcome: ImportOutcome) => void): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  for (const { file, problem } of candidates) {
    const outcome: ImportOutcome = problem === undefined ? await importFile(deps, options, file) : { file, status: 'failed', reason: problem };
    outcomes.push(outcome);
    onOutcome(outcome);
  }
  return outcomes;
}
