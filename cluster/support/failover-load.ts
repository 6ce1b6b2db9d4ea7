import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the load asks for; each kind has its own client loop. */
export type LoadKind = 'create' | 'warm redirect' | 'cold redirect' | 'random image' | 'ready';

/** The status a kind answers when everything works. */
export const SUCCESS: Record<LoadKind, number> = {
  create: 201,
  'warm redirect': 302,
  'cold redirect': 302,
  'random image': 200,
  ready: 200,
};

/** One request of the load and its answer. */
export interface Answer {
  kind: LoadKind;
  /** 0 when no answer came (a refused connection, or none within the client's 5 s). */
  status: number;
  /** The JSON body's `code` of a failure. */
  code?: number;
  retryAfter?: string;
  /** `checks` of a /ready answer. */
  checks?: Record<string, string>;
  /** A client-side error instead of an answer. */
  error?: string;
  /** Unix ms when the request was sent. */
  startedAt: number;
  /** Until the whole answer was read. */
  ms: number;
}

export interface LoadTargets {
  shortener: string;
  /** A second shortener instance: it redirects the codes the first one creates, from Redis or MySQL. */
  peer: string;
  images: string;
  category: string;
  key: string;
  /** Codes the first instance created before the load (in its memory: warm). */
  warmCodes: string[];
}

/** No answer within this is recorded as none (status 0): far above the 1 s the test allows. */
const CLIENT_TIMEOUT_MS = 5000;

/** Between two requests of one loop: a small load (about 60 requests a second in all). */
const PAUSE_MS = 60;

/**
 * Anonymous redirects are limited per client IP (`shortener.lookup`, 300 a minute, for the cold
 * ones): the redirect loops spread over these loopback addresses, as many clients would be.
 */
const ANONYMOUS_ADDRESSES = Array.from({ length: 8 }, (_, i) => `127.27.0.${i + 1}`);

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Keep-alive agents per source address. */
class Clients {
  private readonly agents = new Map<string, http.Agent>();

  request(
    url: string,
    localAddress: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<RawAnswer> {
    let agent = this.agents.get(localAddress);
    if (!agent) this.agents.set(localAddress, (agent = new http.Agent({ keepAlive: true })));
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const headers = {
      ...init.headers,
      ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
    };
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        { method: init.method ?? 'GET', headers, agent, localAddress, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
  }
}

/**
 * A small steady load on the shortener (creates; warm redirects from one instance's memory; cold
 * redirects of fresh codes on a second instance, through Redis and MySQL), random images and the
 * images service's `/ready`, one loop per kind, recording every answer and how long it took.
 */
export class FailoverLoad {
  readonly answers: Answer[] = [];
  private readonly clients = new Clients();
  private readonly fresh: string[] = [];
  private loops: Promise<void>[] = [];
  private running = false;
  private turn = 0;

  constructor(private readonly targets: LoadTargets) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    const kinds: LoadKind[] = ['create', 'warm redirect', 'cold redirect', 'random image', 'ready'];
    this.loops = kinds.map((kind) => this.loop(kind));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    this.clients.close();
  }

  /** The answers to requests sent at or after `since` (unix ms). */
  since(since: number): Answer[] {
    return this.answers.filter((answer) => answer.startedAt >= since);
  }

  private async loop(kind: LoadKind): Promise<void> {
    while (this.running) {
      const sent = await this.once(kind);
      if (sent) this.answers.push(sent);
      await sleep(kind === 'ready' ? PAUSE_MS * 3 : PAUSE_MS);
    }
  }

  private anonymous(): string {
    this.turn = (this.turn + 1) % ANONYMOUS_ADDRESSES.length;
    return ANONYMOUS_ADDRESSES[this.turn]!;
  }

  private async once(kind: LoadKind): Promise<Answer | undefined> {
    const { shortener, peer, images, category, key, warmCodes } = this.targets;
    let url: string;
    let from = '127.0.0.1';
    let init: { method?: string; headers?: Record<string, string>; body?: string } = {};
    switch (kind) {
      case 'create':
        url = `${shortener}/create`;
        init = {
          method: 'POST',
          headers: { authorization: key },
          body: JSON.stringify({ url: `https://example.com/failover/${Date.now()}-${Math.random()}` }),
        };
        break;
      case 'warm redirect':
        url = `${shortener}/${warmCodes[this.answers.length % warmCodes.length]}`;
        from = this.anonymous();
        break;
      case 'cold redirect': {
        const code = this.fresh.shift();
        if (code === undefined) return undefined;
        url = `${peer}/${code}`;
        from = this.anonymous();
        break;
      }
      case 'random image':
        url = `${images}/${category}`;
        init = { headers: { authorization: key } };
        break;
      case 'ready':
        url = `${images}/ready`;
        break;
    }
    const startedAt = Date.now();
    const started = performance.now();
    try {
      const res = await this.clients.request(url, from, init);
      const answer: Answer = { kind, status: res.status, startedAt, ms: performance.now() - started };
      const retryAfter = res.headers['retry-after'];
      if (typeof retryAfter === 'string') answer.retryAfter = retryAfter;
      if ((res.headers['content-type'] ?? '').includes('json') && res.text !== '') {
        const body = JSON.parse(res.text) as {
          code?: number;
          checks?: Record<string, string>;
          data?: { code?: string };
        };
        if (res.status >= 400) answer.code = body.code;
        if (kind === 'ready') answer.checks = body.checks;
        if (kind === 'create' && res.status === 201 && body.data?.code) this.fresh.push(body.data.code);
      }
      return answer;
    } catch (error) {
      return {
        kind,
        status: 0,
        error: error instanceof Error ? error.message : String(error),
        startedAt,
        ms: performance.now() - started,
      };
    }
  }
}
