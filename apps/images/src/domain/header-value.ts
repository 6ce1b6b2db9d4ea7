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
