import { thumbnailJobId, type ThumbnailJobPayload, type ThumbnailType } from '@pawlink/contracts';
import { isApiError } from '@pawlink/service-kit';
import type { PostRequester } from '../src/repositories/post.repository.js';
import type { JobPolicy, JobRead, JobSnapshot, QueueLoad } from '../src/domain/thumbnail-state.rules.js';
import type { ThumbnailQueueRepository } from '../src/repositories/thumbnail-queue.repository.js';
import { CheckThumbnailService } from '../src/services/check-thumbnail.service.js';
import { CreateThumbnailService } from '../src/services/create-thumbnail.service.js';
import { GetThumbnailInfoService } from '../src/services/get-thumbnail-info.service.js';
import type { ThumbnailState } from '../src/domain/thumbnail-state.rules.js';

/*
 * In-memory repositories for the specs of the thumbnail services (services/*.service.spec.ts):
 * the files, the one job per (md5, type), and the board's posts, under a clock the spec moves.
 */

export const MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
export const POST_MD5 = '0123456789abcdef0123456789abcdef';
export const MEDIA = 'http://media.test/thumbs';
export const THUMBS = 'http://thumbs.test';
export const AVERAGE_MS = 4000;
export const POLICY: JobPolicy = { attempts: 3, keepCompletedSeconds: 3600, keepFailedSeconds: 600 };

/** Rendered files by `<md5>.<type>`, ThumbHashes by md5. */
export class InMemoryFiles {
  readonly present = new Set<string>();
  readonly thumbhashes = new Map<string, Buffer>();
  add(md5: string, type: ThumbnailType): void {
    this.present.add(`${md5}.${type}`);
  }
  exists(md5: string, type: ThumbnailType): Promise<boolean> {
    return Promise.resolve(this.present.has(`${md5}.${type}`));
  }
  readThumbhash(md5: string): Promise<Buffer | null> {
    return Promise.resolve(this.thumbhashes.get(md5) ?? null);
  }
}

/** One job per id, as BullMQ keeps them: adding an existing id answers the stored job. */
export class InMemoryQueue implements Pick<ThumbnailQueueRepository, 'find' | 'enqueue' | 'replace' | 'load'> {
  readonly jobs = new Map<string, JobSnapshot>();
  readonly added: Array<{ payload: ThumbnailJobPayload; policy: JobPolicy }> = [];
  currentLoad: QueueLoad = { jobsAhead: 0, slots: 1 };
  /** What a worker does to a job between its add and its read-back. */
  afterAdd: (job: JobSnapshot) => void = () => undefined;

  constructor(private readonly clock: () => number) {}

  find(md5: string, type: ThumbnailType): Promise<JobRead | null> {
    const job = this.jobs.get(thumbnailJobId(md5, type));
    return Promise.resolve(job ? this.readOf(job) : null);
  }

  enqueue(payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobRead> {
    const id = thumbnailJobId(payload.md5, payload.type);
    const existing = this.jobs.get(id);
    if (existing) return Promise.resolve(this.readOf(existing));
    this.added.push({ payload, policy });
    const job: JobSnapshot = {
      id,
      phase: 'waiting',
      progress: null,
      queuedAt: this.clock(),
      processedOn: null,
      finishedOn: null,
      failedReason: null,
      delayMs: null,
    };
    this.jobs.set(id, job);
    this.afterAdd(job);
    return Promise.resolve(this.readOf(job));
  }

  async replace(stale: JobSnapshot, payload: ThumbnailJobPayload, policy: JobPolicy): Promise<JobRead> {
    const current = this.jobs.get(stale.id);
    if (current && (current.phase !== stale.phase || current.finishedOn !== stale.finishedOn))
      return this.readOf(current);
    this.jobs.delete(stale.id);
    return this.enqueue(payload, policy);
  }

  load(): Promise<QueueLoad> {
    return Promise.resolve(this.currentLoad);
  }

  /** The job as a read answers it (the lengths are unused: `load()` answers `currentLoad`). */
  private readOf(job: JobSnapshot): JobRead {
    return { job, queue: { active: 0, waiting: 0 } };
  }

  /** A job in the given state, queued at `queuedAt`. */
  put(md5: string, type: ThumbnailType, job: Partial<JobSnapshot> & { queuedAt: number }): JobSnapshot {
    const snapshot: JobSnapshot = {
      id: thumbnailJobId(md5, type),
      phase: 'waiting',
      progress: null,
      processedOn: null,
      finishedOn: null,
      failedReason: null,
      delayMs: null,
      ...job,
    };
    this.jobs.set(snapshot.id, snapshot);
    return snapshot;
  }
}

/** The three operations over one set of in-memory repositories, as the container wires them. */
export interface ThumbnailWorld {
  files: InMemoryFiles;
  queue: InMemoryQueue;
  /** Post id → its md5, or the error the board answers. */
  posts: Map<number, string | Error>;
  /** Who each board lookup was made for. */
  askedFor: PostRequester[];
  callbacks: InMemoryCallbacks;
  service: {
    info: GetThumbnailInfoService['info'];
    request: CreateThumbnailService['request'];
    check: CheckThumbnailService['check'];
  };
}

/** Callback registrations by job id (URL → key id), and the hosts whose addresses are refused. */
export class InMemoryCallbacks {
  readonly registered = new Map<string, Map<string, number>>();
  readonly refusedHosts = new Set<string>();
  register(md5: string, type: ThumbnailType, url: string, apiKeyId: number): Promise<void> {
    const job = `${md5}.${type}`;
    this.registered.set(job, (this.registered.get(job) ?? new Map<string, number>()).set(url, apiKeyId));
    return Promise.resolve();
  }
  unregister(md5: string, type: ThumbnailType, url: string): Promise<void> {
    this.registered.get(`${md5}.${type}`)?.delete(url);
    return Promise.resolve();
  }
  refusal(url: URL): Promise<string | undefined> {
    return Promise.resolve(this.refusedHosts.has(url.hostname) ? `${url.hostname} is private` : undefined);
  }
  urlsOf(md5: string, type: ThumbnailType): string[] {
    return [...(this.registered.get(`${md5}.${type}`)?.keys() ?? [])];
  }
}

export function thumbnailWorld(clock: () => number): ThumbnailWorld {
  const files = new InMemoryFiles();
  const queue = new InMemoryQueue(clock);
  const posts = new Map<number, string | Error>([[4242, POST_MD5]]);
  const askedFor: PostRequester[] = [];
  const durations = { averageMs: () => Promise.resolve(AVERAGE_MS) };
  const boardPosts = {
    md5OfPost: (postId: number, requester: PostRequester = {}) => {
      askedFor.push(requester);
      const answer = posts.get(postId);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? null);
    },
  };
  const urls = { media: MEDIA, thumbs: THUMBS };
  const info = new GetThumbnailInfoService({ files, posts: boardPosts, urls });
  const callbacks = new InMemoryCallbacks();
  const create = new CreateThumbnailService({
    files,
    queue,
    durations,
    posts: boardPosts,
    callbacks,
    callbackAddresses: callbacks,
    urls,
    jobs: POLICY,
    clock,
  });
  const check = new CheckThumbnailService({ files, queue, durations, urls, jobs: POLICY, clock });
  return {
    files,
    queue,
    posts,
    askedFor,
    callbacks,
    service: {
      info: (...args) => info.info(...args),
      request: (...args) => create.request(...args),
      check: (...args) => check.check(...args),
    },
  };
}

export const byMd5 = (md5: string) => ({ kind: 'md5', md5 }) as const;
export const byPost = (postId: number) => ({ kind: 'post', postId }) as const;

/** The processing answer, asserting that it is one. */
export function processing(state: ThumbnailState): Extract<ThumbnailState, { status: 'processing' }> {
  if (state.status !== 'processing') throw new Error(`expected processing, got ${JSON.stringify(state)}`);
  return state;
}

export async function refusal(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}
