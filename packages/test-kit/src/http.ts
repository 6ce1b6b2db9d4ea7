import type { AddressInfo } from 'node:net';
import http, { type RequestListener } from 'node:http';

export interface TestServer {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

/** Serves a request listener (an Express app) on a free loopback port. */
export async function serveForTest(handler: RequestListener): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** fetch that never follows redirects and parses JSON bodies when there are any. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read bodies loosely
export async function request<T = any>(url: string, init: RequestInit = {}): Promise<JsonResponse<T>> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  const text = await response.text();
  let body: unknown = undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: body as T, text };
}

export const jsonInit = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
