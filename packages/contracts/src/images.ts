/*
 * The images service's wire shapes (docs/api.md §3), each written once as a JSON Schema that carries
 * its type (docs/adr/0016): the generated document holds the schemas, the services and handlers the types.
 */
import { md5Schema } from './md5.js';
import { successWith } from './openapi/operations.js';
import * as s from './schema.js';
import type { Static } from './schema.js';

/** An image as the images service shows it (docs/api.md §3). */
export const ImageRecordSchema = s.object(
  {
    id: md5Schema({ description: "The file's MD5." }),
    url: s.string({ format: 'uri', description: 'IMAGES_MEDIA_URL/<id>.<ext>' }),
    name: s.string(),
    ext: s.string(),
    type: s.string({ description: 'MIME type.' }),
    size: s.integer({ minimum: 0, description: 'Bytes.' }),
    width: s.integer({ minimum: 0 }),
    height: s.integer({ minimum: 0 }),
    artists: s.array(s.string()),
    sources: s.array(s.string()),
    reportURL: s.nullable(s.string()),
    shortURL: s.nullable(s.string({ description: "The image's link on the shortener; null until it is made." })),
    thumbhash: s.nullable(
      s.string({ contentEncoding: 'base64', description: 'ThumbHash placeholder of the image; null until computed.' }),
    ),
  },
  { additionalProperties: true },
);
export type ImageRecord = Static<typeof ImageRecordSchema>;
export const imageRef = s.ref('Image', ImageRecordSchema);

/** The single-image form (`GET /images/:id.json`), which also names the category. */
export const ImageWithCategorySchema = s.extend(imageRef, { category: s.string() });
export type ImageWithCategory = Static<typeof ImageWithCategorySchema>;

export const CategorySchema = s.object(
  {
    name: s.string({ description: '"Group > Name"' }),
    db: s.string({ description: 'The key: "furry.hug".' }),
    sfw: s.boolean({ description: 'Safe for work: keys with the `sfw_only` flag may use only these.' }),
    _comment: s.string({ description: 'Only when disabled.' }),
  },
  { optional: ['_comment'] },
);
export type Category = Static<typeof CategorySchema>;
const categoryRef = s.ref('Category', CategorySchema);

/** The component schemas of the images document. */
export const IMAGES_SCHEMAS = { Image: ImageRecordSchema, Category: CategorySchema };

export const CategoriesResponseSchema = successWith(
  s.object({ enabled: s.array(categoryRef), disabled: s.array(categoryRef) }),
);
export type CategoriesResponse = Static<typeof CategoriesResponseSchema>;

const CategoryInfoSchema = s.object(
  {
    name: s.string(),
    db: s.string(),
    sfw: s.boolean(),
    disabled: s.boolean(),
    _comment: s.string(),
    files: s.object({
      exists: s.boolean(),
      list: s.object({
        total: s.integer({ minimum: 0 }),
        size: s.object({ total: s.number(), totalM: s.number(), average: s.number(), averageM: s.number() }),
        types: s.record(s.integer({ minimum: 0 })),
      }),
    }),
  },
  { optional: ['_comment'] },
);
export const CategoryInfoResponseSchema = successWith(CategoryInfoSchema);
export type CategoryInfoResponse = Static<typeof CategoryInfoResponseSchema>;

export const ImageNoteSchema = s.object({ id: s.integer(), content: s.string() });
export type ImageNote = Static<typeof ImageNoteSchema>;

export const RandomImagesResponseSchema = s.object({
  success: s.literal(true),
  images: s.array(imageRef),
  notes: s.array(ImageNoteSchema),
});
export type RandomImagesResponse = Static<typeof RandomImagesResponseSchema>;

export const BulkImagesResponseSchema = successWith(s.record(s.array(imageRef)));
export type BulkImagesResponse = Static<typeof BulkImagesResponseSchema>;

export const NEVER_HAD_CONTENT_COMMENT = 'Category has never had any content.';
export const AMOUNT_MIN = 1;
export const AMOUNT_MAX = 5;
export const DEFAULT_BULK_LIMIT = 100;

/** Values of `type=` on random picks: a format, or whether the image has more than one frame. */
export const IMAGE_PICK_TYPES = ['gif', 'png', 'jpg', 'webp', 'animated', 'still'] as const;
export type ImagePickType = (typeof IMAGE_PICK_TYPES)[number];
/** At most this many ids in `exclude=` on random picks. */
export const EXCLUDE_MAX = 100;

/** Body of `POST /bulk`: category db key → number of images wanted (a positive integer). */
export type BulkRequestBody = Record<string, number>;

/** Headers sent with the bytes of `GET /:category` when the client prefers an image type. */
export const IMAGE_BYTES_HEADERS = [
  'X-Yiffy-Artist',
  'X-Yiffy-Source',
  'X-Yiffy-Image-Width',
  'X-Yiffy-Image-Height',
  'X-Yiffy-Image-URL',
  'X-Yiffy-Image-Type',
  'X-Yiffy-Image-Name',
  'X-Yiffy-Image-Size',
  'X-Yiffy-Image-Extension',
  'X-Yiffy-Short-URL',
  'X-Yiffy-Report-URL',
] as const;
export type ImageBytesHeader = (typeof IMAGE_BYTES_HEADERS)[number];
