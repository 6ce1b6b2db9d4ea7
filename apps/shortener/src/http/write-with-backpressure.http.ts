import type { Response } from 'express';

/**
 * Writes `chunk` and, when the socket's buffer is full, waits until it drains, so a slow client
 * holds the producer back instead of the process buffering for it. False when the client has gone
 * (the producer stops).
 */
export async function writeWithBackpressure(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
  return !res.destroyed;
}
