import { EntitySchema } from 'typeorm';

export interface ImageRow {
  /** MD5 of the file's bytes, lower-case hex. */
  id: string;
  category: string;
  ext: string;
  mimeType: string;
  size: number;
  width: number;
  height: number;
  artists: string[];
  sources: string[];
  reportUrl: string | null;
  shortUrl: string | null;
  createdAt: Date;
  /**
   * More than one frame. Written at import and read only by the size index rebuild (the
   * `animated` and `still` sets): rows read back, records and the record cache do not carry it.
   */
  animated?: boolean;
  /** ThumbHash in base64; null (or absent) until computed. */
  thumbhash?: string | null;
}

export const ImageEntity = new EntitySchema<ImageRow>({
  name: 'Image',
  tableName: 'images',
  columns: {
    id: { type: 'char', length: 32, primary: true },
    category: { type: 'varchar', length: 100 },
    ext: { type: 'varchar', length: 10 },
    mimeType: { name: 'mime_type', type: 'varchar', length: 50 },
    size: {
      type: 'bigint',
      unsigned: true,
      transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
    },
    width: { type: 'int', unsigned: true },
    height: { type: 'int', unsigned: true },
    artists: { type: 'json' },
    sources: { type: 'json' },
    reportUrl: { name: 'report_url', type: 'varchar', length: 2048, nullable: true },
    shortUrl: { name: 'short_url', type: 'varchar', length: 2048, nullable: true },
    createdAt: { name: 'created_at', type: 'datetime', precision: 3 },
    animated: { type: 'boolean', default: false, select: false },
    thumbhash: { type: 'varchar', length: 64, nullable: true },
  },
  indices: [
    { name: 'idx_images_category_id', columns: ['category', 'id'] },
    { name: 'idx_images_category_type_size', columns: ['category', 'mimeType', 'size'] },
  ],
});
