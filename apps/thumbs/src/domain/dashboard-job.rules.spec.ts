import { THUMBNAIL_JOB } from '@pawlink/contracts';
import { describe, expect, it } from 'vitest';
import { dashboardAddProblem, thumbnailPayloadProblem, withoutStackTraces } from './dashboard-job.rules.js';

const MD5 = 'a'.repeat(32);

describe('dashboard job rules', () => {
  it('accepts a thumbnail job and its deterministic id', () => {
    expect(
      dashboardAddProblem({ name: THUMBNAIL_JOB, data: { md5: MD5, type: 'gif', requestedAt: 0 } }),
    ).toBeUndefined();
    expect(
      dashboardAddProblem({
        name: THUMBNAIL_JOB,
        data: { md5: MD5, type: 'png', requestedAt: 5, postId: 7 },
        options: { jobId: `${MD5}.png`, attempts: 1 },
      }),
    ).toBeUndefined();
    expect(
      dashboardAddProblem({
        name: THUMBNAIL_JOB,
        data: { md5: MD5, type: 'mp4', requestedAt: 5 },
        options: { jobId: `${MD5}.mp4` },
      }),
    ).toBeUndefined();
  });

  it.each([
    ['no body', undefined, 'expected a JSON object'],
    ['no name', { data: { md5: MD5, type: 'gif', requestedAt: 0 } }, 'name must be'],
    ['no data', { name: THUMBNAIL_JOB }, 'data must be an object'],
    [
      'an upper-case md5',
      { name: THUMBNAIL_JOB, data: { md5: MD5.toUpperCase(), type: 'gif', requestedAt: 0 } },
      'data.md5',
    ],
    [
      'an unknown type',
      { name: THUMBNAIL_JOB, data: { md5: MD5, type: 'bmp', requestedAt: 0 } },
      'data.type must be one of gif, png, webp, mp4.',
    ],
    [
      'a post id of 0',
      { name: THUMBNAIL_JOB, data: { md5: MD5, type: 'gif', requestedAt: 0, postId: 0 } },
      'data.postId',
    ],
    [
      'another job id',
      { name: THUMBNAIL_JOB, data: { md5: MD5, type: 'gif', requestedAt: 0 }, options: { jobId: 'x' } },
      'options.jobId',
    ],
  ])('refuses %s', (_label, body, reason) => {
    expect(dashboardAddProblem(body)).toContain(reason);
  });

  it('checks edited job data as a payload', () => {
    expect(thumbnailPayloadProblem({ md5: MD5, type: 'gif', requestedAt: 0 })).toBeUndefined();
    expect(thumbnailPayloadProblem({})).toContain('data.md5');
  });

  it('empties stack traces wherever a job sits in an answer', () => {
    const job = { id: '1', failedReason: 'boom\nat y', stacktrace: ['Error: boom\n    at y'], data: { md5: MD5 } };
    expect(withoutStackTraces({ queues: [{ jobs: [job] }], job })).toEqual({
      queues: [{ jobs: [{ ...job, failedReason: 'boom', stacktrace: [] }] }],
      job: { ...job, failedReason: 'boom', stacktrace: [] },
    });
  });
});
