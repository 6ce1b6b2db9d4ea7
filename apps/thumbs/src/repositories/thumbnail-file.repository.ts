import { stat } from 'node:fs/promises';
import path from 'node:path';
import { thumbnailFileName, thumbnailsDir, type ThumbnailType } from '@pawlink/contracts';

/**
 * The rendered files under `MEDIA_DIR/thumbs`. The worker renames finished files into place,
 * so a file that exists is complete.
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
}
