import { randomBytes } from 'node:crypto';
import type { ServiceName } from '@pawlink/test-kit';
import { jobId, type ThumbnailJobKey } from './board-posts.js';
import type { CreatedCodes } from './created-codes.js';
import type { JobTracker } from './job-tracker.js';
import { HttpClient } from './http-client.js';
import type { Answer, RequestLog, RequestRecord } from './request-log.js';

export interface EndpointTargets {
  url(service: ServiceName): string;
  key: string;
  category: string;
}

/** Every url the suite shortens starts with this, so the database can be asked for all of them. */
export const CREATED_URL_PREFIX = 'https://example.com/faults/';

/**
 * Each kind of request the load makes, sent by a given client through the request log; the
 * answers feed the acknowledged creates and the job tracker, and a success whose content is wrong
 * is marked so.
 */
export class Endpoints {
  private readonly run = randomBytes(4).toString('hex');
  private sequence = 0;
  /** The client of the suite's own probes (recovery rounds, the job watch, the final checks of jobs), from 127.0.0.1. */
  readonly probe = new HttpClient();

  constructor(
    private readonly targets: EndpointTargets,
    private readonly log: RequestLog,
    readonly codes: CreatedCodes,
    readonly jobs: JobTracker,
  ) {}

  private get keyed(): Record<string, string> {
    return { authorization: this.targets.key };
  }

  /** POST /create of a new url; with `bodyPauseMs`, the body's second half follows that much later (the request is under way meanwhile). */
  async create(
    client: HttpClient,
    origin: RequestRecord['origin'],
    options: { bodyPauseMs?: number } = {},
  ): Promise<Answer> {
    const url = `${CREATED_URL_PREFIX}${this.run}/${++this.sequence}`;
    const answer = await this.log.send('create', origin, client, `${this.targets.url('shortener')}/create`, {
      method: 'POST',
      headers: { ...this.keyed, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
      bodyPauseMs: options.bodyPauseMs,
    });
    const { record, body } = answer;
    if (record.status === 201 || record.status === 200) {
      const data = body?.data as { code?: unknown; url?: unknown } | undefined;
      if (typeof data?.code !== 'string' || data.url !== url) record.wrong = `create answered ${JSON.stringify(body)}`;
      else {
        record.created = { code: data.code, url: data.url };
        this.codes.add(data.code, data.url, record.endedAt);
      }
    }
    return answer;
  }

  async redirect(
    client: HttpClient,
    origin: RequestRecord['origin'],
    code: string,
    expectedUrl: string,
  ): Promise<Answer> {
    const warm = this.codes.isWarm(code);
    const answer = await this.log.send('redirect', origin, client, `${this.targets.url('shortener')}/${code}`);
    answer.record.warm = warm;
    if (answer.record.status === 302) {
      const { location } = answer;
      if (location !== expectedUrl)
        answer.record.wrong = `${code} redirected to ${location ?? 'nothing'} instead of ${expectedUrl}`;
      else this.codes.redirected(code, answer.record.startedAt);
    }
    return answer;
  }

  async random(client: HttpClient, origin: RequestRecord['origin'], anonymous: boolean): Promise<Answer> {
    const answer = await this.log.send(
      anonymous ? 'random-anonymous' : 'random-keyed',
      origin,
      client,
      `${this.targets.url('images')}/${this.targets.category}`,
      {
        headers: anonymous ? {} : this.keyed,
      },
    );
    if (answer.record.status === 200 && !(Array.isArray(answer.body?.images) && answer.body.images.length > 0)) {
      answer.record.wrong = `no images: ${JSON.stringify(answer.body)}`;
    }
    return answer;
  }

  async thumbPut(client: HttpClient, origin: RequestRecord['origin'], job: ThumbnailJobKey): Promise<Answer> {
    const answer = await this.log.send(
      'thumb-put',
      origin,
      client,
      `${this.targets.url('thumbs')}/${job.md5}/${job.type}`,
      { method: 'PUT', headers: this.keyed },
    );
    this.observeJob(job, answer, 'put');
    return answer;
  }

  async thumbCheck(client: HttpClient, origin: RequestRecord['origin'], job: ThumbnailJobKey): Promise<Answer> {
    const answer = await this.log.send(
      'thumb-check',
      origin,
      client,
      `${this.targets.url('thumbs')}/check/${job.md5}/${job.type}`,
      { headers: this.keyed },
    );
    this.observeJob(job, answer, 'check');
    return answer;
  }

  /** Whether the thumbnail file exists, according to `GET /:md5` (null when that did not answer 200). */
  async thumbnailExists(job: ThumbnailJobKey): Promise<boolean | null> {
    try {
      const response = await fetch(`${this.targets.url('thumbs')}/${job.md5}`, {
        headers: this.keyed,
        signal: AbortSignal.timeout(3000),
      });
      if (response.status !== 200) return null;
      const body = (await response.json()) as Record<string, unknown>;
      return body[`${job.type}URL`] !== null && body[`${job.type}URL`] !== undefined;
    } catch {
      return null;
    }
  }

  private observeJob(job: ThumbnailJobKey, { record, body }: Answer, via: 'put' | 'check'): void {
    const at = record.endedAt;
    const status = record.status;
    const done = via === 'put' ? status === 200 : status === 201;
    const processing = via === 'put' ? status === 202 : status === 200;
    if (done || processing) {
      const expected = done ? 'done' : 'processing';
      if (body?.status !== expected)
        record.wrong = `${jobId(job)}: ${via} ${status} with status ${JSON.stringify(body?.status)}`;
    }
    if (processing) this.jobs.acknowledged(job, at);
    else if (done) this.jobs.ended(job, at, 'completed');
    else if ((status === 500 && record.code === 1060) || (status === 404 && record.code === 1068))
      this.jobs.ended(job, at, 'failed');
    else if (status === 408 && record.code === 1065) this.jobs.ended(job, at, 'timeout');
    else if (via === 'check' && status === 404 && record.code === 1066) this.jobs.vanished(job, at);
    this.jobs.observed(job, at);
  }
}
