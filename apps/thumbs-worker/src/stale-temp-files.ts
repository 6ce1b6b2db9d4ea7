import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/** Prefix of a job's download directory under THUMBS_TMP_DIR (mkdtemp adds six characters). */
export const DOWNLOAD_DIR_PREFIX = 'pawlink-thumb-';
const DOWNLOAD_DIR_NAME = new RegExp(`^${DOWNLOAD_DIR_PREFIX}[A-Za-z0-9]{6}$`);

/** Removes the entries of `dir` whose names match and that were last changed over `olderThanMs` ago. */
async function removeStale(dir: string, name: RegExp, olderThanMs: number, now: number): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const entry of names) {
    if (!name.test(entry)) continue;
    const target = path.join(dir, entry);
    try {
      if (now - (await stat(target)).mtimeMs > olderThanMs) {
        await rm(target, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // gone already: another worker swept it or its job finished
    }
  }
  return removed;
}

/**
 * Removes hidden temp files a killed worker left in the thumbnail directory. Only files older
 * than `olderThanMs` go, so another worker's write in progress is never touched.
 */
export function removeStaleTempFiles(dir: string, olderThanMs: number, now = Date.now()): Promise<number> {
  return removeStale(dir, TEMP_NAME, olderThanMs, now);
}

/**
 * Removes the download directories (up to THUMBS_MAX_DOWNLOAD_BYTES each) that killed workers
 * left in THUMBS_TMP_DIR; as above, only ones no running job can still be using.
 */
export function removeStaleDownloadDirs(tmpDir: string, olderThanMs: number, now = Date.now()): Promise<number> {
  return removeStale(tmpDir, DOWNLOAD_DIR_NAME, olderThanMs, now);
}
