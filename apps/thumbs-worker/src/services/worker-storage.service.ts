import type { ThumbnailFileRepository } from '../repositories/thumbnail-file.repository.js';
import type { WorkDirRepository } from '../repositories/work-dir.repository.js';

/** How long /ready waits for the disk before calling it down (Redis has the runtime's command timeout). */
const MEDIA_CHECK_TIMEOUT_MS = 1000;

export interface WorkerStorageDeps {
  thumbnails: Pick<ThumbnailFileRepository, 'dir' | 'ensureDir' | 'removeStaleTempFiles' | 'isWritable'>;
  workDirs: Pick<WorkDirRepository, 'removeStale'>;
  /** THUMBS_JOB_TIMEOUT_MS: no job runs longer. */
  jobTimeoutMs: number;
}

/** What `prepare()` found and did, for the start's log line. */
export interface PreparedStorage {
  thumbsDir: string;
  sweptTempFiles: number;
  sweptDownloadDirs: number;
}

/**
 * The worker process's two directories, outside any job: the thumbnails directory and the one
 * downloads go to. Prepared once at start, and the thumbnails directory checked for /ready.
 */
export class WorkerStorageService {
  constructor(private readonly deps: WorkerStorageDeps) {}

  /** Creates the thumbnails directory, and removes what killed workers left in both directories. */
  async prepare(): Promise<PreparedStorage> {
    const { thumbnails, workDirs, jobTimeoutMs } = this.deps;
    await thumbnails.ensureDir();
    // Leftovers of killed workers: older than twice the job budget, no running job can own them.
    const staleAfterMs = 2 * jobTimeoutMs;
    const sweptTempFiles = await thumbnails.removeStaleTempFiles(staleAfterMs);
    const sweptDownloadDirs = await workDirs.removeStale(staleAfterMs);
    return { thumbsDir: thumbnails.dir, sweptTempFiles, sweptDownloadDirs };
  }

  /** /ready's `media`: whether a thumbnail could be written now. */
  async mediaState(): Promise<'up' | 'down'> {
    return (await this.deps.thumbnails.isWritable(MEDIA_CHECK_TIMEOUT_MS)) ? 'up' : 'down';
  }
}
