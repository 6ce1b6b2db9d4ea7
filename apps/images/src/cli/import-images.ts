import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata } from 'sharp';
import type { ImageRow } from '../db/image.entity.js';
import { IMAGE_FORMATS } from '../domain/image-format.js';
import { imageFilePath, imagesDir } from '../domain/media-path.js';
import type { CategoryRepository } from '../repositories/category.repository.js';
import type { ImageRepository } from '../repositories/image.repository.js';
import type { RecordCache } from '../repositories/record-cache.js';
import type { SizeIndex } from '../repositories/size-index.js';

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
const isOptionalUrl = (value: unknown): boolean => value === undefined || value === null || typeof value === 'string';

/** Validates a parsed sidecar; throws a message naming the bad entry. */
export function parseSidecar(json: unknown): Sidecar {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('the sidecar must be a JSON object of file name → {artists, sources}.');
  for (const [file, entry] of Object.entries(json as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new Error(`sidecar entry "${file}" must be an object.`);
    const { artists, sources, reportURL, shortURL } = entry as Record<string, unknown>;
    if (artists !== undefined && !isStringArray(artists)) throw new Error(`sidecar entry "${file}": artists must be an array of strings.`);
    if (sources !== undefined && !isStringArray(sources)) throw new Error(`sidecar entry "${file}": sources must be an array of strings.`);
    if (!isOptionalUrl(reportURL) || !isOptionalUrl(shortURL)) throw new Error(`sidecar entry "${file}": reportURL and shortURL must be strings or null.`);
  }
  return json as Sidecar;
}

/** Files named on the command line, folders expanded recursively in name order (hidden entries skipped). */
export async function expandPaths(paths: readonly string[], exclude: readonly string[] = []): Promise<string[]> {
  const skip = new Set(exclude.map((p) => path.resolve(p)));
  const files: string[] = [];
  const visit = async (target: string): Promise<void> => {
    const resolved = path.resolve(target);
    if (skip.has(resolved)) return;
    const info = await stat(resolved);
    if (info.isDirectory()) {
      // Hidden files in a folder (.DS_Store, editor swap files) are not candidates; named files always are.
      const entries = (await readdir(resolved)).filter((entry) => !entry.startsWith('.')).sort();
      for (const entry of entries) await visit(path.join(resolved, entry));
    } else if (info.isFile()) {
      files.push(resolved);
    }
  };
  for (const target of paths) await visit(target);
  return files;
}

function sidecarEntry(sidecar: Sidecar | undefined, file: string): SidecarEntry | undefined {
  if (!sidecar) return undefined;
  return sidecar[path.basename(file)] ?? sidecar[path.relative(process.cwd(), file)] ?? sidecar[file];
}

/** Writes under a temporary name in the same directory, then renames: nginx never serves half a file. */
async function placeAtomically(target: string, bytes: Buffer): Promise<void> {
  const temp = path.join(path.dirname(target), `.tmp-${randomBytes(8).toString('hex')}`);
  try {
    await writeFile(temp, bytes, { flag: 'wx' });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
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
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { animated: true, limitInputPixels: 268_402_689 }).metadata();
  } catch {
    return { file, status: 'failed', reason: 'not an image' };
  }
  const format = metadata.format ? IMAGE_FORMATS[metadata.format] : undefined;
  if (!format) return { file, status: 'failed', reason: `unsupported image format ${metadata.format ?? 'unknown'} (accepted: ${Object.keys(IMAGE_FORMATS).join(', ')})` };
  const width = metadata.width;
  // For animations sharp reports the height of all frames stacked; one frame is pageHeight.
  const height = metadata.pageHeight ?? metadata.height;
  if (!width || !height) return { file, status: 'failed', reason: 'image has no dimensions' };

  const id = createHash('md5').update(bytes).digest('hex');
  const existing = await deps.images.findById(id);
  if (existing) return { file, status: 'duplicate', id, category: existing.category };

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
  try {
    await mkdir(imagesDir(deps.mediaDir), { recursive: true });
    await placeAtomically(imageFilePath(deps.mediaDir, id, format.ext), bytes);
  } catch (error) {
    return { file, status: 'failed', reason: `cannot write the media file: ${(error as Error).message}` };
  }
  if (!(await deps.images.insert(row))) {
    const other = await deps.images.findById(id);
    return { file, status: 'duplicate', id, category: other?.category ?? options.category };
  }
  await deps.records.setMany([row]);
  await deps.sizeIndex.add(options.category, id, row.size);
  return { file, status: 'imported', id, ext: format.ext, size: row.size };
}

/** Imports files one after the other, reporting each outcome; never stops at a bad file. */
export async function importFiles(deps: ImportDeps, options: ImportOptions, files: readonly string[], onOutcome: (outcome: ImportOutcome) => void): Promise<ImportOutcome[]> {
  const outcomes: ImportOutcome[] = [];
  for (const file of files) {
    const outcome = await importFile(deps, options, file);
    outcomes.push(outcome);
    onOutcome(outcome);
  }
  return outcomes;
}
