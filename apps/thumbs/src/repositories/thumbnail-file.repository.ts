import { readFile, stat } from 'node:fs/promises';
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

  async exists(md5: string, type: ThumbnailType): Promise<boolean> {
    try {
      return (await stat(this.pathOf(md5, type))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
      throw error;
    }
  }

  /** The post's ThumbHash bytes (`<md5>.thumbhash`), or null while none is published. */
  async readThumbhash(md5: string): Promise<Buffer | null> {
    try {
      return await readFile(path.join(this.directory, thumbhashFileName(md5)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw error;
    }
  }
}
