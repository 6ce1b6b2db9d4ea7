import { createHash } from 'node:crypto';
import { retryWrite, type RetryWriteOptions } from '@pawlink/service-kit';
import type { ImageRow } from '../db/entities/image.entity.js';
import type { CategoryRepository } from '../repositories/category.repository.js';
import type { ImageFileRepository } from '../repositories/image-file.repository.js';
import type { ImageHeader, ImageProbeRepository } from '../repositories/image-probe.repository.js';
import type { ImageRepository } from '../repositories/image.repository.js';
import type { RecordCacheRepository } from '../repositories/record-cache.repository.js';
import type { ThumbhashRepository } from '../repositories/thumbhash.repository.js';
import { normaliseCredits, type ImageCredits } from '../domain/image-credits.rules.js';
import { acceptedFormat, IMAGE_FORMATS } from '../domain/image-format.policy.js';
import { pickTypesOf } from '../domain/image-type.policy.js';
import type { SizeIndexService } from './size-index.service.js';

export type { ImageCredits } from '../domain/image-credits.rules.js';

/** One import run: the target category, and the credits of each file (flags, or its sidecar entry) as given. */
export interface ImportJob {
  category: string;
  creditsFor(file: string): ImageCredits;
}

/** A file to import, an entry found in a folder that cannot be one (reported as failed), or one left alone (`skip`: why). */
export interface ImportCandidate {
  file: string;
  problem?: string;
  skip?: string;
}

export type ImportOutcome =
  | { file: string; status: 'imported'; id: string; ext: string; size: number }
  | { file: string; status: 'duplicate'; id: string; category: string }
  | { file: string; status: 'failed'; reason: string }
  /** Not a candidate: a hidden entry of a folder (`.DS_Store`, `.git/`), reported and left alone. */
  | { file: string; status: 'skipped'; reason: string };

export interface ImageImportServiceDeps {
  categories: Pick<CategoryRepository, 'find'>;
  images: Pick<ImageRepository, 'findById' | 'insert'>;
  files: Pick<ImageFileRepository, 'exists' | 'place' | 'remove' | 'removeStaleTemps'>;
  probe: Pick<ImageProbeRepository, 'read' | 'header' | 'decode'>;
  records: Pick<RecordCacheRepository, 'setMany'>;
  indexing: Pick<SizeIndexService, 'add'>;
  thumbhashes: Pick<ThumbhashRepository, 'of'>;
  now?: () => Date;
  /** How a file's import is tried again when the database connection was lost under it (FAILOVER_RETRY). */
  failoverRetry?: RetryWriteOptions;
}

/**
 * A writer failing over (Galera behind HAProxy: the writer moves in 1–2 s, commits resume in about
 * 3 s) cuts the import's connection. One file's import is safe to repeat: a second try of an image
 * whose row was stored after all repairs it (and puts its file back). So a file is tried again
 * for up to 30 s, a pause of 0.25–1 s between tries, before the import gives up.
 */
const FAILOVER_RETRY: RetryWriteOptions = { attempts: 40, budgetMs: 30_000, minDelayMs: 250, maxDelayMs: 1_000 };

/** A temporary file younger than this may belong to an import running right now. */
const STALE_TEMP_AGE_MS = 60 * 60 * 1000;
/** The first line of sharp's message says what is wrong (unsupported format, premature end, pixel limit…). */
const SHARP_REASON_MAX = 200;

const failed = (file: string, reason: string): ImportOutcome => ({ file, status: 'failed', reason });
const notAnImage = (file: string, error: unknown): ImportOutcome =>
  failed(
    file,
    `not an image or truncated (${String((error as Error).message)
      .split('\n')[0]!
      .slice(0, SHARP_REASON_MAX)})`,
  );
const cannotPlace = (file: string, error: unknown): ImportOutcome =>
  failed(file, `cannot write the media file: ${(error as Error).message}`);

/**
 * The import rule: an image is known by the MD5 of its bytes and stored once. A file is decoded
 * whole before anything is stored; its file is placed before its row is inserted (and removed
 * again if the insert fails), then cached and indexed. Importing a known image again repairs it:
 * it is indexed again and a lost media file is put back.
 */
export class ImageImportService {
  private readonly now: () => Date;

  constructor(private readonly deps: ImageImportServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async categoryExists(db: string): Promise<boolean> {
    return (await retryWrite(() => this.deps.categories.find(db), this.deps.failoverRetry ?? FAILOVER_RETRY)) !== null;
  }

  /** Removes the temporary files an interrupted import (Ctrl-C, a crash) left behind; returns how many. */
  removeInterruptedWrites(): Promise<number> {
    return this.deps.files.removeStaleTemps(STALE_TEMP_AGE_MS);
  }

  /** Imports candidates one after the other, reporting each outcome; never stops at a bad file. */
  async importAll(
    job: ImportJob,
    candidates: readonly ImportCandidate[],
    onOutcome: (outcome: ImportOutcome) => void,
  ): Promise<ImportOutcome[]> {
    const outcomes: ImportOutcome[] = [];
    for (const { file, problem, skip } of candidates) {
      const outcome: ImportOutcome =
        skip !== undefined
          ? { file, status: 'skipped', reason: skip }
          : problem === undefined
            ? await retryWrite(() => this.importFile(job, file), this.deps.failoverRetry ?? FAILOVER_RETRY)
            : failed(file, problem);
      outcomes.push(outcome);
      onOutcome(outcome);
    }
    return outcomes;
  }

  /** Imports a file; one whose credits are refused (`normaliseCredits`) is not read. */
  async importFile(job: ImportJob, file: string): Promise<ImportOutcome> {
    const credits = normaliseCredits(job.creditsFor(file));
    if ('problem' in credits) return failed(file, credits.problem);
    let bytes: Buffer;
    try {
      bytes = await this.deps.probe.read(file);
    } catch (error) {
      return failed(file, `cannot read: ${(error as Error).message}`);
    }
    return this.importChecked(job.category, file, bytes, credits.credits);
  }

  /** Imports `bytes`; `file` names them in the outcome and finds their credits. */
  async importBytes(job: ImportJob, file: string, bytes: Buffer): Promise<ImportOutcome> {
    const credits = normaliseCredits(job.creditsFor(file));
    if ('problem' in credits) return failed(file, credits.problem);
    return this.importChecked(job.category, file, bytes, credits.credits);
  }

  /** The import of bytes whose credits are normalised already. */
  private async importChecked(
    category: string,
    file: string,
    bytes: Buffer,
    credits: ImageCredits,
  ): Promise<ImportOutcome> {
    if (bytes.length === 0) return failed(file, 'empty file');
    let header: ImageHeader;
    try {
      header = await this.deps.probe.header(bytes);
    } catch (error) {
      return notAnImage(file, error);
    }
    const format = acceptedFormat(header.format);
    if (!format)
      return failed(
        file,
        `unsupported image format ${header.format ?? 'unknown'} (accepted: ${Object.keys(IMAGE_FORMATS).join(', ')})`,
      );
    const { width, height } = header;
    if (!width || !height) return failed(file, 'image has no dimensions');
    try {
      await this.deps.probe.decode(bytes);
    } catch (error) {
      return notAnImage(file, error);
    }

    const id = createHash('md5').update(bytes).digest('hex');
    const existing = await this.deps.images.findById(id);
    if (existing) return this.repair(file, existing, bytes, header.animated);

    const row: ImageRow = {
      id,
      category,
      ext: format.ext,
      mimeType: format.mime,
      size: bytes.length,
      width,
      height,
      artists: credits.artists,
      sources: credits.sources,
      reportUrl: credits.reportUrl,
      shortUrl: credits.shortUrl,
      createdAt: this.now(),
      animated: header.animated,
      // A placeholder is not worth refusing an image for: `bin/admin images thumbhash` retries it.
      thumbhash: await this.deps.thumbhashes.of(bytes).catch(() => null),
    };
    try {
      await this.deps.files.place(id, format.ext, bytes);
    } catch (error) {
      return cannotPlace(file, error);
    }
    let inserted: boolean;
    try {
      inserted = await this.deps.images.insert(row);
    } catch (error) {
      // No row refers to the file (none existed above): leave no orphan behind.
      await this.deps.files.remove(id, format.ext);
      throw error;
    }
    if (!inserted) {
      const other = await this.deps.images.findById(id);
      return { file, status: 'duplicate', id, category: other?.category ?? category };
    }
    await this.deps.records.setMany([row]);
    await this.deps.indexing.add(category, id, row.size, pickTypesOf(format.ext, header.animated));
    return { file, status: 'imported', id, ext: format.ext, size: row.size };
  }

  /** A known image imported again: index it again (after a Redis failure) and put a lost file back. */
  private async repair(file: string, existing: ImageRow, bytes: Buffer, animated: boolean): Promise<ImportOutcome> {
    // The same bytes (the same MD5): their header says whether the stored image is animated.
    await this.deps.indexing.add(existing.category, existing.id, existing.size, pickTypesOf(existing.ext, animated));
    if (!(await this.deps.files.exists(existing.id, existing.ext))) {
      try {
        await this.deps.files.place(existing.id, existing.ext, bytes);
      } catch (error) {
        return cannotPlace(file, error);
      }
    }
    return { file, status: 'duplicate', id: existing.id, category: existing.category };
  }
}
