import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The report an import wrote: its lines, the summary last. */
export async function readReport(
  file: string,
): Promise<{ lines: Array<Record<string, unknown>>; summary: Record<string, unknown> }> {
  const all = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const last = all.pop() as { summary: Record<string, unknown> };
  return { lines: all, summary: last.summary };
}

/** A local HTTP stand-in for another shortener's API; `answer` gets the request and its URL. */
export async function standIn(
  answer: (req: IncomingMessage, url: URL, res: ServerResponse) => void,
): Promise<{ url: string; requests: URL[]; close: () => Promise<void> }> {
  const requests: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push(url);
    answer(req, url, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
