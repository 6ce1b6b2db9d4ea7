import { describe, expect, it } from 'vitest';
import { WorkerStorageService } from './worker-storage.service.js';

/** The calls the service makes, in order, and the answers the directories give. */
function storage(writable: boolean): { calls: string[]; service: WorkerStorageService } {
  const calls: string[] = [];
  const service = new WorkerStorageService({
    thumbnails: {
      dir: '/media/thumbs',
      ensureDir: () => {
        calls.push('ensureDir');
        return Promise.resolve();
      },
      removeStaleTempFiles: (olderThanMs) => {
        calls.push(`removeStaleTempFiles ${olderThanMs}`);
        return Promise.resolve(2);
      },
      isWritable: (timeoutMs) => {
        calls.push(`isWritable ${timeoutMs}`);
        return Promise.resolve(writable);
      },
    },
    workDirs: {
      removeStale: (olderThanMs) => {
        calls.push(`removeStale ${olderThanMs}`);
        return Promise.resolve(1);
      },
    },
    jobTimeoutMs: 120_000,
  });
  return { calls, service };
}

describe('WorkerStorageService', () => {
  it('creates the thumbnails directory, then sweeps what is older than twice the job budget in both directories', async () => {
    const { calls, service } = storage(true);
    expect(await service.prepare()).toEqual({ thumbsDir: '/media/thumbs', sweptTempFiles: 2, sweptDownloadDirs: 1 });
    expect(calls).toEqual(['ensureDir', 'removeStaleTempFiles 240000', 'removeStale 240000']);
  });

  it('calls the media up while a thumbnail can be written within a second, else down', async () => {
    const up = storage(true);
    expect(await up.service.mediaState()).toBe('up');
    expect(up.calls).toEqual(['isWritable 1000']);
    expect(await storage(false).service.mediaState()).toBe('down');
  });
});
