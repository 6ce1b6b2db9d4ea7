import type { ImageBytesHeader, ImageRecord } from '@pawlink/contracts';

/** The longest value of one `X-Yiffy-*` header, in bytes (values are ASCII once encoded). */
export const YIFFY_HEADER_MAX_BYTES = 1024;
/**
 * The most all `X-Yiffy-*` header lines may take together, in bytes (`name: value` and CRLF each):
 * with the other headers the whole header block stays far below Node's 16 KiB and within the
 * 4 KiB of a proxy's default buffer (nginx `proxy_buffer_size`).
 */
export const YIFFY_HEADERS_MAX_BYTES = 2048;
/** Room kept for the artist and source lists before single values are given up (the longest URLs first). */
const LIST_ROOM_BYTES = 512;

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

const lineBytes = (name: string, value: string): number => name.length + 2 + value.length + 2;

/**
 * A list as one header value of at most `budget` bytes: whole entries only, in order. When they do
 * not all fit, the value ends with the entry `+N more` (N entries left out); the JSON form has the
 * whole list. Empty when not even that fits.
 */
export function boundedList(entries: readonly string[], budget: number): string {
  const encoded = entries.map((entry) => headerValue(entry));
  const whole = encoded.join(', ');
  if (whole.length <= budget) return whole;
  let best = '';
  let text = '';
  for (let kept = 0; kept < encoded.length; kept++) {
    const candidate = `${text}${text === '' ? '' : ', '}+${encoded.length - kept} more`;
    if (candidate.length > budget) break;
    best = candidate;
    text = `${text}${text === '' ? '' : ', '}${encoded[kept]}`;
  }
  return best;
}

/**
 * The `X-Yiffy-*` headers that describe an image sent as bytes; a null short or report URL is an
 * empty header. Each value is at most YIFFY_HEADER_MAX_BYTES and all of them together at most
 * YIFFY_HEADERS_MAX_BYTES, whatever was stored: a single value over its limit is sent empty (so are
 * the report, short and image URLs, in that order, should they leave the lists too little room),
 * and the artist and source lists share what is left (see `boundedList`).
 */
export function imageBytesHeaders(image: ImageRecord): Record<ImageBytesHeader, string> {
  const single = {
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
  for (const name of Object.keys(single) as Array<keyof typeof single>)
    if (single[name].length > YIFFY_HEADER_MAX_BYTES) single[name] = '';
  const used = (): number =>
    Object.entries(single).reduce(
      (sum, [name, value]) => sum + lineBytes(name, value),
      lineBytes('X-Yiffy-Artist', '') + lineBytes('X-Yiffy-Source', ''),
    );
  for (const name of ['X-Yiffy-Report-URL', 'X-Yiffy-Short-URL', 'X-Yiffy-Image-URL'] as const) {
    if (YIFFY_HEADERS_MAX_BYTES - used() >= LIST_ROOM_BYTES) break;
    single[name] = '';
  }
  const left = YIFFY_HEADERS_MAX_BYTES - used();
  const artistsNeed = headerValue(image.artists).length;
  const sourcesNeed = headerValue(image.sources).length;
  // Half each, and what one list does not need goes to the other.
  let artistsBudget = Math.min(artistsNeed, YIFFY_HEADER_MAX_BYTES, Math.floor(left / 2));
  const sourcesBudget = Math.min(sourcesNeed, YIFFY_HEADER_MAX_BYTES, left - artistsBudget);
  artistsBudget = Math.min(artistsNeed, YIFFY_HEADER_MAX_BYTES, left - sourcesBudget);
  return {
    'X-Yiffy-Artist': boundedList(image.artists, artistsBudget),
    'X-Yiffy-Source': boundedList(image.sources, sourcesBudget),
    ...single,
  };
}
