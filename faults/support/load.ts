import { setTimeout as sleep } from 'node:timers/promises';
import type { ThumbnailJobKey } from './board-posts.js';
import type { Endpoints } from './endpoints.js';
import { HttpClient, loopbackAddresses } from './http-client.js';

/** How much load, and of which kind: bounded so that the 2-core machine measures the faults, not itself. */
export const LOAD_MIX = {
  shortenerClients: 6,
  imagesClients: 4,
  thumbsClients: 4,
  /** Pause of each client between two requests. */
  pauseMs: 40,
  /** Share of the shortener clients' requests that are creates (the rest redirect acknowledged codes). */
  createShare: 0.35,
  /**
   * Share of redirects to a code the shortener has not redirected yet (a lookup in Redis/MySQL);
   * the rest follow codes already redirected, as links people share are followed again and again.
   * Lookups are limited per client IP (shortener.lookup, 300/min): ~23 requests/s × 0.65 × 0.15
   * keeps each client near 130/min.
   */
  coldRedirectShare: 0.15,
  /** Share of random-image requests sent without a key, as the anonymous budget allows. */
  anonymousShare: 0.3,
  /** Anonymous requests per second: with the recovery probes' (≤ 4/s for ≤ 15 s a fault), under the per-IP limit of images.random (300/min). */
  anonymousPerSecond: 1.5,
  /** How often a thumbs client polls check, and how long before it leaves a job to the final sweep. */
  checkEveryMs: 250,
  giveUpPollingAfterMs: 20_000,
} as const;

/** Anonymous requests all come from 127.0.0.1, so they share one IP's rate limit: spend it at a fixed rate. */
class TokenBucket {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Lets the thumbs clients be held between two jobs (a fault needs an idle queue to place its own job). */
class Gate {
  private opened: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;

  close(): void {
    this.opened = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
  }

  wait(): Promise<void> {
    return this.opened;
  }
}

/**
 * The mixed load: shortener clients (creates, redirects of acknowledged codes), images clients
 * (random images with the key, some anonymous) and thumbs clients (PUT a job, poll check until it
 * ends). Closed loops with a short pause, so a slow answer slows its client, as real clients.
 */
export class Load {
  private stopped = false;
  private readonly running: Array<Promise<void>> = [];
  private readonly clients: HttpClient[] = [];
  private readonly anonymous = new TokenBucket(LOAD_MIX.anonymousPerSecond, 3);
  private readonly thumbsGate = new Gate();
  private parked = 0;
  private nextJob = 0;

  constructor(
    private readonly endpoints: Endpoints,
    private readonly jobs: readonly ThumbnailJobKey[],
  ) {}

  /** Each client has its own source address: 127.1.0.1, 127.1.0.2, ... */
  start(): void {
    const addresses = loopbackAddresses(1, LOAD_MIX.shortenerClients + LOAD_MIX.imagesClients + LOAD_MIX.thumbsClients);
    const client = (): HttpClient => {
      const made = new HttpClient(addresses.shift());
      this.clients.push(made);
      return made;
    };
    for (let i = 0; i < LOAD_MIX.shortenerClients; i++) this.running.push(this.loop(this.shortenerClient(client())));
    for (let i = 0; i < LOAD_MIX.imagesClients; i++) this.running.push(this.loop(this.imagesClient(client())));
    for (let i = 0; i < LOAD_MIX.thumbsClients; i++) this.running.push(this.loop(this.thumbsClient(client())));
  }

  /** Lets every client finish its request in flight, then returns. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.thumbsGate.open();
    await Promise.all(this.running);
    for (const client of this.clients) client.close();
  }

  /** Holds the thumbs clients before their next job; resolves once all of them wait. */
  async holdThumbs(timeoutMs: number): Promise<void> {
    this.thumbsGate.close();
    const deadline = Date.now() + timeoutMs;
    while (this.parked < LOAD_MIX.thumbsClients) {
      if (Date.now() > deadline) throw new Error(`thumbs clients still busy after ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  releaseThumbs(): void {
    this.thumbsGate.open();
  }

  private async loop(step: () => Promise<void>): Promise<void> {
    while (!this.stopped) {
      await step();
      await sleep(LOAD_MIX.pauseMs);
    }
  }

  private shortenerClient(client: HttpClient): () => Promise<void> {
    return async () => {
      const { codes } = this.endpoints;
      const target =
        Math.random() < LOAD_MIX.coldRedirectShare ? codes.random() : (codes.randomWarm() ?? codes.random());
      if (!target || Math.random() < LOAD_MIX.createShare) await this.endpoints.create(client, 'load');
      else await this.endpoints.redirect(client, 'load', target.code, target.url);
    };
  }

  private imagesClient(client: HttpClient): () => Promise<void> {
    return async () => {
      const anonymous = Math.random() < LOAD_MIX.anonymousShare && this.anonymous.take();
      await this.endpoints.random(client, 'load', anonymous);
    };
  }

  /** One thumbs client: a job is PUT until accepted (503s are retried after a pause), then polled until it ends. */
  private thumbsClient(client: HttpClient): () => Promise<void> {
    let job: ThumbnailJobKey | undefined;
    return async () => {
      this.parked++;
      await this.thumbsGate.wait();
      this.parked--;
      if (this.stopped) return;
      // Past the last job the clients start over: PUTs of finished jobs answer 200 "done".
      job ??= this.jobs[this.nextJob++ % this.jobs.length]!;
      const put = await this.endpoints.thumbPut(client, 'load', job);
      if (put.record.status !== 202) {
        if (put.record.status === 503 || put.record.status === null) await sleep(500);
        else job = undefined;
        return;
      }
      const polled = job;
      job = undefined;
      const giveUpAt = Date.now() + LOAD_MIX.giveUpPollingAfterMs;
      while (!this.stopped && Date.now() < giveUpAt) {
        await sleep(LOAD_MIX.checkEveryMs);
        const { status } = (await this.endpoints.thumbCheck(client, 'load', polled)).record;
        if (status !== null && status !== 200 && status !== 503) return;
      }
    };
  }
}
