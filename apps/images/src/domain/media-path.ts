import path from 'node:path';

/** `MEDIA_DIR/images`, the directory nginx serves as IMAGES_MEDIA_URL. */
export const imagesDir = (mediaDir: string): string => path.join(mediaDir, 'images');

/** Where the file of an image lives: `MEDIA_DIR/images/<id>.<ext>`. */
export const imageFilePath = (mediaDir: string, id: string, ext: string): string => path.join(imagesDir(mediaDir), `${id}.${ext}`);
