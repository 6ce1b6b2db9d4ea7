/** Formats the service accepts, from what sharp reads in the bytes (never the file name). */
export const IMAGE_FORMATS: Record<string, { ext: string; mime: string }> = {
  jpeg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
  gif: { ext: 'gif', mime: 'image/gif' },
  webp: { ext: 'webp', mime: 'image/webp' },
};

/** The accepted format sharp named, or undefined (own keys only: `constructor` is no format). */
export const acceptedFormat = (format: string | undefined): { ext: string; mime: string } | undefined =>
  format !== undefined && Object.hasOwn(IMAGE_FORMATS, format) ? IMAGE_FORMATS[format] : undefined;
