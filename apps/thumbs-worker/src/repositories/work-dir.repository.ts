import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { removeStaleEntries } from '@pawlink/service-kit/files';

/** Prefix of a job's download directory under THUMBS_TMP_DIR (mkdtemp adds six characters). */
export const DOWNLOAD_DIR_PREFIX = 'pawlink-thumb-';
const DOWNLOAD_DIR_NAME = new RegExp(`^${DOWNLOAD_DIR_PREFIX}[A-Za-z0-9]{6}$`);

/** One job's private directory: the download lands in it, and it goes when the job ends. */
export interface WorkDir {
  /** The path of `name` inside the directory. */
  file(name: string): string;
  /** Removes the directory and everything in it. */
  remove(): Promise<void>;
}

/** Per-job download directories under THUMBS_TMP_DIR. */
export class WorkDirRepository {
  constructor(private readonly tmpDir: string) {}

  /** A fresh directory no other job shares. */
  async create(): Promise<WorkDir> {
    const dir = await mkdtemp(path.join(this.tmpDir, DOWNLOAD_DIR_PREFIX));
    return {
      file: (name) => path.join(dir, path.basename(name)),
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  }

  /**
   * Removes the download directories (up to THUMBS_MAX_DOWNLOAD_BYTES each) that killed workers
   * left; only ones older than `olderThanMs`, which no running job can still be using.
   */
  removeStale(olderThanMs: number, now = Date.now()): Promise<number> {
    return removeStaleEntries(this.tmpDir, DOWNLOAD_DIR_NAME, olderThanMs, now);
  }
}
