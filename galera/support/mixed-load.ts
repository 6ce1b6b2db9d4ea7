import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/** The bound every answer must meet: the client gives up after it (docs/api.md: answers within 1 s). */
export const CLIENT_TIMEOUT_MS = 1000;
/** docs/api.md §5: a dependency cannot be reached or does not answer in time. */
const DEPENDENCY_UNAVAILABLE = 1004;

export type Kind = 'create' | 'edit' | 'delete' | 'visit' | 'random-image' | 'thumb-put';

const SUCCESS: Record<Kind, number[]> = {
  create: [201],
  edit: [200],
  delete: [204],
  visit: [302],
  'random-image': [200],
  'thumb-put': [200, 202],
};

export interface Answer {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  status: number | null;
  code?: number;
  retryAfter?: string;
  failure?: string;
}

/** One short link as the load knows it: what an acknowledged write says must be in every node. */
export interface Link {
  code: string;
  managementCode: string;
  /** The URL the last acknowledged write set. */
  url: string;
  /** URLs an unacknowledged edit may have set (it may have committed before its answer was lost). */
  maybeUrls: string[];
  deleted: 'no' | 'yes' | 'maybe';
  /** An edit or delete is under way. */
  busy: boolean;
  /** Visits answered 302: each was counted. */
  visits: number;
  /** Visits that got no answer: counted or not (one answered otherwise was not). */
  maybeVisits: number;
}

interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One client with its own loopback source address (the services limit anonymous lookups per IP). A
 * connection a request: a kept-alive socket the server closes as the next request goes out would
 * show up as ECONNRESET, a client artefact and not an answer of the service.
 */
class Client {
  private readonly agent = new http.Agent({ keepAlive: false });
  constructor(private readonly localAddress: string) {}

  request(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method,
          agent: this.agent,
          localAddress: this.localAddress,
          headers: {
            ...headers,
            ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
          },
          signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
        },
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
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const errorCode = (text: string): number | undefined => {
  try {
    const body = JSON.parse(text) as { code?: unknown };
    return typeof body.code === 'number' ? body.code : undefined;
  } catch {
    return undefined;
  }
};

export interface LoadTargets {
  shortener: string;
  images: string;
  thumbs: string;
  key: string;
  category: string;
  /** Board posts, one thumbnail job each. */
  posts: number[];
}

/**
 * A steady mixed load of a few clients: creates, edits, deletes and visits of short links, random
 * images and thumbnail requests, all with the API key (so its usage is counted too). Every request
 * gives up after CLIENT_TIMEOUT_MS. It records every answer and what the acknowledged writes say.
 */
export class MixedLoad {
  readonly answers: Answer[] = [];
  readonly links: Link[] = [];
  /** Posts whose thumbnail request was acknowledged (a job queued or done). */
  readonly acknowledgedThumbs = new Set<number>();
  private running = false;
  private loops: Array<Promise<void>> = [];
  private readonly clients: Client[];
  private serial = 0;
  private nextPost = 0;

  constructor(
    private readonly targets: LoadTargets,
    clientCount = 5,
  ) {
    this.clients = Array.from({ length: clientCount }, (_, i) => new Client(`127.35.0.${i + 1}`));
  }

  start(): void {
    this.running = true;
    this.loops = this.clients.map((client) => this.loop(client));
  }

  /** Stops the clients (start() takes up again with the same links). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    for (const client of this.clients) client.close();
  }

  /** Answers of `kind` (or all) that began in [from, to]. */
  between(from: number, to: number): Answer[] {
    return this.answers.filter((answer) => answer.startedAt >= from && answer.startedAt <= to);
  }

  private async loop(client: Client): Promise<void> {
    while (this.running) {
      await this.step(client);
      // About 10 requests a second a client: enough to see every write path fail over, light
      // enough for a 2-core machine shared with the cluster itself.
      await sleep(80);
    }
  }

  private async step(client: Client): Promise<void> {
    const roll = Math.random();
    const live = this.links.filter((link) => link.deleted === 'no' && !link.busy);
    if (roll < 0.35 || live.length < 5) return this.create(client);
    const link = live[Math.floor(Math.random() * live.length)]!;
    if (roll < 0.5) return this.edit(client, link);
    if (roll < 0.58) return this.remove(client, link);
    if (roll < 0.8) {
      const answer = await this.send(client, 'visit', `${this.targets.shortener}/${link.code}`, 'GET');
      if (answer.ok) link.visits++;
      else if (answer.status === null) link.maybeVisits++;
      return;
    }
    if (roll < 0.92) {
      await this.send(client, 'random-image', `${this.targets.images}/${this.targets.category}`, 'GET');
      return;
    }
    const post = this.targets.posts[this.nextPost++ % this.targets.posts.length]!;
    const answer = await this.send(client, 'thumb-put', `${this.targets.thumbs}/${post}/png`, 'PUT');
    if (answer.ok) this.acknowledgedThumbs.add(post);
  }

  private async create(client: Client): Promise<void> {
    const url = `https://example.com/galera/${process.pid}/${++this.serial}`;
    const answer = await this.send(client, 'create', `${this.targets.shortener}/create`, 'POST', { url });
    if (!answer.ok) return;
    const data = (JSON.parse(answer.text) as { data: { code: string; managementCode: string } }).data;
    this.links.push({
      code: data.code,
      managementCode: data.managementCode,
      url,
      maybeUrls: [],
      deleted: 'no',
      busy: false,
      visits: 0,
      maybeVisits: 0,
    });
  }

  private async edit(client: Client, link: Link): Promise<void> {
    const url = `${link.url.split('#')[0]}#edit-${++this.serial}`;
    link.busy = true;
    const answer = await this.send(client, 'edit', `${this.targets.shortener}/${link.code}`, 'PATCH', {
      managementCode: link.managementCode,
      url,
    });
    if (answer.ok) {
      link.url = url;
      link.maybeUrls = [];
    } else {
      link.maybeUrls.push(url);
    }
    link.busy = false;
  }

  private async remove(client: Client, link: Link): Promise<void> {
    link.busy = true;
    const answer = await this.send(client, 'delete', `${this.targets.shortener}/${link.code}`, 'DELETE', {
      managementCode: link.managementCode,
    });
    link.deleted = answer.ok ? 'yes' : 'maybe';
    link.busy = false;
  }

  private async send(
    client: Client,
    kind: Kind,
    url: string,
    method: string,
    body?: unknown,
  ): Promise<{ ok: boolean; status: number | null; text: string }> {
    const startedAt = Date.now();
    const record: Answer = { kind, startedAt, endedAt: startedAt, status: null };
    let text = '';
    try {
      const res = await client.request(url, method, { authorization: this.targets.key }, body);
      text = res.text;
      record.status = res.status;
      record.code = res.status >= 400 ? errorCode(res.text) : undefined;
      if (res.headers['retry-after'] !== undefined) record.retryAfter = String(res.headers['retry-after']);
    } catch (error) {
      const err = error as { name?: string; code?: string; message?: string };
      record.failure =
        err.name === 'TimeoutError' || err.name === 'AbortError' ? 'no answer within 1 s' : (err.code ?? err.message);
    }
    record.endedAt = Date.now();
    this.answers.push(record);
    return { ok: record.status !== null && SUCCESS[kind].includes(record.status), status: record.status, text };
  }
}

/** Why `answer` is not what the contract allows under a database failover, or undefined. */
export function contractViolation(answer: Answer): string | undefined {
  if (answer.status === null) return answer.failure ?? 'no answer';
  if (SUCCESS[answer.kind].includes(answer.status)) return undefined;
  if (answer.status === 503 && answer.code === DEPENDENCY_UNAVAILABLE) {
    return answer.retryAfter === undefined ? '503 1004 without Retry-After' : undefined;
  }
  return `${answer.status}${answer.code === undefined ? '' : ` ${answer.code}`}`;
}

/** One line for a failure message. */
export const describeAnswer = (answer: Answer, since: number): string =>
  `${answer.kind} at +${answer.startedAt - since} ms: ${answer.status ?? answer.failure} ${answer.code ?? ''} (${answer.endedAt - answer.startedAt} ms)`;
