import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { thumbhashFileName, thumbnailFileName, type ThumbnailType } from '@pawlink/contracts';
import { removeStaleTempFiles, writeFileAtomically } from '@pawlink/service-kit/files';

/**
 * The published thumbnails, `<dir>/<md5>.<type>` (dir is contracts' `thumbnailsDir(MEDIA_DIR)`,
 * served by nginx). Writes are atomic: a reader only ever sees a complete file.
 */
export class ThumbnailFileRepository {
  constructor(readonly dir: string) {}

  /** Creates the directory when it is missing. */
  async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** Writes (or replaces) one thumbnail; returns its path. */
  write(md5: string, type: ThumbnailType, bytes: Uint8Array): Promise<string> {
    return writeFileAtomically(this.dir, thumbnailFileName(md5, type), bytes);
  }

  /** Writes (or replaces) the post's ThumbHash (`<md5>.thumbhash`, contracts' media layout); returns its path. */
  writeThumbhash(md5: string, bytes: Uint8Array): Promise<string> {
    return writeFileAtomically(this.dir, thumbhashFileName(md5), bytes);
  }

  /** Whether the thumbnail is published (a file at its final name is complete: writes are atomic). */
  exists(md5: string, type: ThumbnailType): Promise<boolean> {
    return isFile(path.join(this.dir, thumbnailFileName(md5, type)));
  }

  /** Whether the post's ThumbHash is published. */
  hasThumbhash(md5: string): Promise<boolean> {
    return isFile(path.join(this.dir, thumbhashFileName(md5)));
  }

  /**
   * Whether a new file can be created in the directory within `timeoutMs` (readiness): creates and
   * removes an empty hidden file, named like the kit's temp files so that one left by a killed
   * process is swept like them. A failing or hanging disk is false, never an exception.
   */
  async isWritable(timeoutMs: number): Promise<boolean> {
    const probe = path.join(this.dir, `.ready.${randomBytes(6).toString('hex')}.tmp`);
    const attempt = writeFile(probe, '', { flag: 'wx' })
      .then(
        () => true,
        () => false,
      )
      .finally(() => rm(probe, { force: true }).catch(() => undefined));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([attempt, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Removes the hidden temp files that killed workers left; only ones older than `olderThanMs`,
   * so another worker's write in progress is never touched.
   */
  removeStaleTempFiles(olderThanMs: number, now = Date.now()): Promise<number> {
    return removeStaleTempFiles(this.dir, olderThanMs, now);
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}
