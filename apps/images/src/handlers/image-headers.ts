import type { ImageBytesHeader, ImageRecord } from '@pawlink/contracts';

/**
 * A value that is safe in an HTTP header: control characters and anything outside printable
 * ASCII are percent-encoded (UTF-8), so artist names in any script survive and never break
 * the response; arrays are joined with ", ".
 */
export function headerValue(value: string | number | readonly string[]): string {
  const text = Array.isArray(value) ? value.join(', ') : String(value);
  return text.replace(/[^\x20-\x7e]/gu, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD';
    }
  });
}

/** The `X-Yiffy-*` headers that describe an image sent as bytes; a null short or report URL is an empty header. */
export function imageBytesHeaders(image: ImageRecord): Record<ImageBytesHeader, string> {
  return {
    'X-Yiffy-Artist': headerValue(image.artists),
    'X-Yiffy-Source': headerValue(image.sources),
    'X-Yiffy-Image-Width': String(image.width),
    'X-Yiffy-Image-Height': String(image.height),
    'X-Yiffy-Image-URL': headerValue(image.url),
    'X-Yiffy-Image-Type': headerValue(image.type),
    'X-Yiffy-Image-Name': headerValue(image.name),
    'X-Yiffy-Image-Size': String(image.size),
    'X-Yiffy-Image-Extension': headerValue(image.ext),
    'X-Yiffy-Short-URL': headerValue(image.shortURL ?? ''),
    'X-Yiffy-Report-URL': headerValue(image.reportURL ?? ''),
  };
}
