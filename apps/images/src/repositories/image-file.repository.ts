import { rm, stat } from 'node:fs/promises';
import { imageFileName, imagesDir } from '@pawlink/contracts';
import { removeStaleTempFiles, writeFileAtomically } from '@pawlink/service-kit/files';

/** The image files under `MEDIA_DIR/images`, which nginx serves as IMAGES_MEDIA_URL. */
export class ImageFileRepository {
  private readonly dir: string;

  constructor(mediaDir: string) {
    this.dir = imagesDir(mediaDir);
  }

  /** Where the file of an image lives: `MEDIA_DIR/images/<id>.<ext>`. */
  pathOf(id: string, ext: string): string {
    return `${this.dir}/${imageFileName(id, ext)}`;
  }

  async exists(id: string, ext: string): Promise<boolean> {
    return stat(this.pathOf(id, ext)).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  /** Writes the file so that nginx never serves half of it (a hidden temporary name, then a rename). */
  async place(id: string, ext: string, bytes: Uint8Array): Promise<void> {
    await writeFileAtomically(this.dir, imageFileName(id, ext), bytes);
  }

  /** Removes the file; one that is already gone is not an error. */
  async remove(id: string, ext: string): Promise<void> {
    await rm(this.pathOf(id, ext), { force: true });
  }

  /** Removes the temporary files interrupted writes left that are older than `olderThanMs`; returns how many. */
  removeStaleTemps(olderThanMs: number): Promise<number> {
    return removeStaleTempFiles(this.dir, olderThanMs);
  }
}
