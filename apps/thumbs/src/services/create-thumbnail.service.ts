import type { ThumbnailJobPayload, ThumbnailType } from '@pawlink/contracts';
import { ApiError } from '@pawlink/service-kit';
import type { CallbackAddressRepository } from '../repositories/callback-address.repository.js';
import type { JobDurationRepository } from '../repositories/job-duration.repository.js';
import type { PostRepository, PostRequester } from '../repositories/post.repository.js';
import type { ThumbnailCallbackRepository } from '../repositories/thumbnail-callback.repository.js';
import type { ThumbnailFileRepository } from '../repositories/thumbnail-file.repository.js';
import type { JobPolicy, JobRead } from '../domain/thumbnail-state.rules.js';
import type { ThumbnailQueueRepository } from '../repositories/thumbnail-queue.repository.js';
import { postMd5OrRefuse, type ThumbnailTarget } from '../domain/thumbnail-id.rules.js';
import {
  doneState,
  isStaleJob,
  processingStateOf,
  settledStateOf,
  type ThumbnailRef,
  type ThumbnailState,
  type ThumbnailUrls,
} from '../domain/thumbnail-state.rules.js';

export interface CreateThumbnailDeps {
  files: Pick<ThumbnailFileRepository, 'exists'>;
  queue: Pick<ThumbnailQueueRepository, 'find' | 'enqueue' | 'replace' | 'load'>;
  durations: Pick<JobDurationRepository, 'averageMs'>;
  posts: Pick<PostRepository, 'md5OfPost'>;
  callbacks: Pick<ThumbnailCallbackRepository, 'register' | 'unregister'>;
  callbackAddresses: Pick<CallbackAddressRepository, 'refusal'>;
  urls: ThumbnailUrls;
  /** New jobs' attempts and retention; a failed job is reported for `keepFailedSeconds`, then a PUT may start over. */
  jobs: JobPolicy;
  clock: () => number;
}

/** A completion callback asked for with the PUT: where to POST, and the key whose secret signs it. */
export interface CallbackRequest {
  url: URL;
  apiKeyId: number;
}

/**
 * PUT /:id/:type (docs/api.md, "Thumbnails"): done when the file exists, else the state of the one
 * job per (md5, type), queued now when there is none or it is stale. A callback URL is checked
 * first (1085, nothing queued) and registered for the job's end only when the answer is
 * "processing".
 */
export class CreateThumbnailService {
  constructor(private readonly deps: CreateThumbnailDeps) {}

  /**
   * A post id is resolved to its MD5 for `requester` (unknown to the board: 1062). When the board
   * cannot answer, the repository's PostUnavailableError reaches the caller, and so does its
   * PostShareUsedError for a requester over its share of the board budget.
   */
  async request(
    target: ThumbnailTarget,
    type: ThumbnailType,
    requester: PostRequester = {},
    callback?: CallbackRequest,
  ): Promise<Exclude<ThumbnailState, { status: 'missing' }>> {
    if (callback) await this.refuseUncallable(callback.url);
    const { files, posts, callbacks } = this.deps;
    const md5 = target.kind === 'md5' ? target.md5 : postMd5OrRefuse(await posts.md5OfPost(target.postId, requester));
    const ref: ThumbnailRef = { md5, type, urls: this.deps.urls };
    if (await files.exists(md5, type)) return doneState(ref);
    if (!callback) return this.requestJob(ref, target);
    // Registered before the job is read or queued: a job that ends after this read finds it.
    await callbacks.register(md5, type, callback.url.href, callback.apiKeyId);
    const state = await this.requestJob(ref, target);
    if (state.status !== 'processing') await callbacks.unregister(md5, type, callback.url.href);
    return state;
  }

  private async refuseUncallable(url: URL): Promise<void> {
    const refusal = await this.deps.callbackAddresses.refusal(url);
    if (refusal !== undefined) throw new ApiError('CALLBACK_URL_REFUSED', { message: refusal });
  }

  private async requestJob(
    ref: ThumbnailRef,
    target: ThumbnailTarget,
  ): Promise<Exclude<ThumbnailState, { status: 'missing' }>> {
    const { files, queue, jobs, clock } = this.deps;
    const { md5, type } = ref;
    const payload: ThumbnailJobPayload = {
      md5,
      type,
      requestedAt: clock(),
      ...(target.kind === 'post' ? { postId: target.postId } : {}),
    };
    const found = await queue.find(md5, type);
    if (found?.job.phase === 'completed' && (await files.exists(md5, type))) return doneState(ref);
    if (found && !isStaleJob(found.job, jobs.keepFailedSeconds, clock())) return this.stateOf(found, ref, false);
    const queued = found ? await queue.replace(found.job, payload, jobs) : await queue.enqueue(payload, jobs);
    // Queued now, by this request or a racing one.
    return this.stateOf(queued, ref, true);
  }

  private async stateOf(
    read: JobRead,
    ref: ThumbnailRef,
    queuedNow: boolean,
  ): Promise<Exclude<ThumbnailState, { status: 'missing' }>> {
    const { job } = read;
    const settled = settledStateOf(job, ref, { queuedNow, now: this.deps.clock() });
    if (settled) return settled;
    const [averageJobMs, load] = await Promise.all([this.deps.durations.averageMs(), this.deps.queue.load(read)]);
    return processingStateOf(job, ref, { averageJobMs, load, now: this.deps.clock() });
  }
}
