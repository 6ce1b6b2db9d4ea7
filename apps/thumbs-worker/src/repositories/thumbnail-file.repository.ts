import { mkdir } from 'node:fs/promises';
import { thumbnailFileName, type ThumbnailType } from '@pawlink/contracts';
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

  /**
   * Removes the hidden temp files that killed workers left; only ones older than `olderThanMs`,
   * so another worker's write in progress is never touched.
   */
  removeStaleTempFiles(olderThanMs: number, now = Date.now()): Promise<number> {
    return removeStaleTempFiles(this.dir, olderThanMs, now);
  }
}
