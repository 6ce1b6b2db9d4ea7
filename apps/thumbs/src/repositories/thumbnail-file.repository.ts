import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { thumbhashFileName, thumbnailFileName, thumbnailsDir, type ThumbnailType } from '@pawlink/contracts';

/**
 * The rendered files under `MEDIA_DIR/thumbs`, and the still's ThumbHash beside them. The worker
 * renames finished files into place, so a file that exists is complete.
 */
export class ThumbnailFileRepository {
  readonly directory: string;

  constructor(mediaDir: string) {
    this.directory = thumbnailsDir(mediaDir);
  }

  pathOf(md5: string, type: ThumbnailType): string {
    return path.join(this.directory, thumbnailFileName(md5, type));
  }

  /**
   * Synchronous on purpose: a stat of a local directory entry is a cached lookup of about 0.5 µs,
   * while `fs.promises.stat` costs 10–18 µs of CPU a call through the thread pool, and more when
   * the file is missing (a rejected promise with a stack), which is the common case of a check.
   * MEDIA_DIR is a local disk (nginx serves it); on a network mount this would block the loop.
   */
  exists(md5: string, type: ThumbnailType): Promise<boolean> {
    try {
      return Promise.resolve(statSync(this.pathOf(md5, type), { throwIfNoEntry: false })?.isFile() ?? false);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return Promise.resolve(false);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** The post's ThumbHash bytes (`<md5>.thumbhash`), or null while none is published. */
  async readThumbhash(md5: string): Promise<Buffer | null> {
    try {
      return await readFile(path.join(this.directory, thumbhashFileName(md5)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
        return null;
      throw error;
    }
  }
}
