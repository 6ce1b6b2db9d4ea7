import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface HttpRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The body's second half follows this much later, so the request is under way on the server meanwhile. */
  bodyPauseMs?: number;
  /** The whole answer (body read) within this, or the request fails as AbortError. */
  timeoutMs: number;
}

/**
 * One client: its own source address on the loopback network (127.0.0.0/8 all reaches the
 * services) and its own keep-alive sockets. The services limit anonymous requests per client
 * IP, so a load of many clients must come from many addresses, as it would in production.
 */
export class HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true });

  constructor(readonly localAddress = '127.0.0.1') {}

  request(url: string, options: HttpRequest): Promise<HttpAnswer> {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const headers = { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: options.method ?? 'GET',
          headers,
          agent: this.agent,
          localAddress: this.localAddress,
          signal: AbortSignal.timeout(options.timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('aborted', () => reject(Object.assign(new Error('response cut short'), { code: 'ECONNRESET' })));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.on('error', reject);
      if (!body) {
        req.end();
      } else if (options.bodyPauseMs === undefined) {
        req.end(body);
      } else {
        req.write(body.subarray(0, body.length >> 1));
        setTimeout(() => {
          if (!req.destroyed) req.end(body.subarray(body.length >> 1));
        }, options.bodyPauseMs);
      }
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Distinct loopback addresses, `127.<block>.x.y`, for `count` clients. */
export function loopbackAddresses(block: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`);
}
