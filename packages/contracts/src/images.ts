/** An image as the images service shows it (docs/api.md §3). */
export interface ImageRecord {
  id: string;
  url: string;
  name: string;
  ext: string;
  type: string;
  size: number;
  width: number;
  height: number;
  artists: string[];
  sources: string[];
  reportURL: string | null;
  shortURL: string | null;
  /** ThumbHash of the image in base64 (a placeholder to draw while it loads); null until computed. */
  thumbhash: string | null;
}

export interface ImageWithCategory extends ImageRecord {
  category: string;
}

export interface Category {
  name: string;
  db: string;
  /** Safe for work: keys with the `sfw_only` flag may use only these. */
  sfw: boolean;
  _comment?: string;
}

export interface CategoriesResponse {
  success: true;
  data: { enabled: Category[]; disabled: Category[] };
}

export interface CategoryInfoResponse {
  success: true;
  data: {
    name: string;
    db: string;
    sfw: boolean;
    disabled: boolean;
    _comment?: string;
    files: {
      exists: boolean;
      list: {
        total: number;
        size: { total: number; totalM: number; average: number; averageM: number };
        types: Record<string, number>;
      };
    };
  };
}

export interface ImageNote {
  id: number;
  content: string;
}

export interface RandomImagesResponse {
  success: true;
  images: ImageRecord[];
  notes: ImageNote[];
}

export interface BulkImagesResponse {
  success: true;
  data: Record<string, ImageRecord[]>;
}

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
