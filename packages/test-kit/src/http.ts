import type { OpenApiDocument } from '@pawlink/contracts/openapi';
import type { AddressInfo } from 'node:net';
import http, { type RequestListener } from 'node:http';
import { assertMatchesContract, bindContract } from './openapi/contracts.js';

export interface TestServer {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** The service's OpenAPI document: every response `request()` gets from this server is checked against it. */
  contract?: OpenApiDocument;
}

/** Serves a request listener (an Express app) on a free loopback port. */
export async function serveForTest(handler: RequestListener, options: ServeOptions = {}): Promise<TestServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const unbind = options.contract ? bindContract(url, options.contract) : () => undefined;
  return {
    url,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        unbind();
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
  /** The body as received (image bytes, say). */
  bytes: Buffer;
}

/**
 * fetch that never follows redirects and parses JSON bodies when there are any. A response from a
 * server bound to an OpenAPI document (`serveForTest(…, { contract })`, `startService`) must match
 * it, or this throws a ContractViolation naming every mismatch.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read bodies loosely
export async function request<T = any>(url: string, init: RequestInit = {}): Promise<JsonResponse<T>> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  const bytes = Buffer.from(await response.arrayBuffer());
  assertMatchesContract({
    method: init.method ?? 'GET',
    url,
    status: response.status,
    headers: response.headers,
    body: bytes,
  });
  const text = new TextDecoder().decode(bytes);
  let body: unknown = undefined;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: body as T, text, bytes };
}

export const jsonInit = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
