import type { Request, Response } from 'express';
import type { ConsoleFile } from '../repositories/console-build.repository.js';

/** Sends a built console file, gzipped when the client takes it. */
export function sendConsoleFile(req: Request, res: Response, file: ConsoleFile): void {
  const gzip = req.acceptsEncodings(['gzip', 'identity']) === 'gzip';
  res.set({ 'Content-Type': file.type, 'X-Content-Type-Options': 'nosniff', Vary: 'Accept-Encoding' });
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.status(200).send(gzip ? file.gzip : file.body);
}
