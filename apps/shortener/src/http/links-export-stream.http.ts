import type { Logger } from '@pawlink/service-kit';
import type { Response } from 'express';
import { writeWithBackpressure } from './write-with-backpressure.http.js';

/** What the log lines of a download say about it. */
export interface ExportStreamFacts {
  owner: number;
  format: string;
  /** Pages in `head` (0 or 1); the log lines count the pages read in all. */
  pages: number;
}

/**
 * Writes `head` (what was read before the status was set) and then each page `rest` yields, a page
 * only after the previous one was taken by the client; `render` turns a page into bytes.
 *
 * - The client leaves: no further page is read, the pages are closed, a debug line says so.
 * - A page cannot be read (the database failed): the failure is logged and the connection is reset
 *   without ending the body, so the client sees an error (a chunked body never terminated, a TCP
 *   reset for a close-delimited HTTP/1.0 one), never a shorter file that looks complete.
 */
export async function streamExport<P>(
  res: Response,
  head: string,
  rest: AsyncGenerator<P>,
  render: (page: P) => string,
  facts: ExportStreamFacts & { logger: Logger },
): Promise<void> {
  const { logger, pages: inHead, ...said } = facts;
  let pages = inHead;
  try {
    let open = await writeWithBackpressure(res, head);
    while (open) {
      const next = await rest.next();
      if (next.done === true) break;
      pages += 1;
      open = await writeWithBackpressure(res, render(next.value));
    }
    if (open) res.end();
    else logger.debug('links export: the client left before the end', { ...said, pages });
  } catch (error) {
    logger.error('links export cut short: a page could not be read', { ...said, pages, error });
    // A reset (RST), not an orderly close: only that tells an HTTP/1.0 client its body is short.
    if (res.socket !== null && !res.socket.destroyed) res.socket.resetAndDestroy();
    else res.destroy();
  } finally {
    await rest.return(undefined);
  }
}
