import type { Request, Response } from 'express';

/** Headers that would make `send` answer part of a file, or nothing: meaningless for a random pick. */
const CONDITIONAL_HEADERS = [
  'range',
  'if-range',
  'if-match',
  'if-none-match',
  'if-modified-since',
  'if-unmodified-since',
] as const;

/**
 * Sends a whole file with `headers`. They go through sendFile's `headers`, applied only once the
 * file is found: a missing file then fails as plain JSON code 0, without image headers describing
 * bytes that never come. No ranges or validators: each request is a new random pick, so Range,
 * If-Match or If-None-Match would refer to bytes the client has never seen (send would answer
 * 206, 304, or fail with 412/416 after setting the image headers).
 */
export async function sendWholeFile(
  req: Request,
  res: Response,
  file: string,
  headers: Record<string, string>,
): Promise<void> {
  for (const name of CONDITIONAL_HEADERS) delete req.headers[name];
  const options = {
    dotfiles: 'deny',
    cacheControl: false,
    lastModified: false,
    etag: false,
    acceptRanges: false,
    headers,
  } as const;
  await new Promise<void>((resolve, reject) => {
    res.sendFile(file, options, (error) => {
      // Once the bytes are flowing a failure (usually the client going away) has no one to be
      // reported to; only a failure before them is an error response.
      if (error && !res.headersSent) reject(error);
      else resolve();
    });
  });
}
