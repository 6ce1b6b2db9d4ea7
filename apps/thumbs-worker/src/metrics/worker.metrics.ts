import { THUMBNAIL_CALLBACK_QUEUE, THUMBNAIL_QUEUE, THUMBNAIL_TYPES } from '@pawlink/contracts';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { CallbackAttemptOutcome, CallbackDeliveryResult } from '../domain/callback-outcome.rules.js';

/** Seconds: a still image takes a tenth, an animation several, the job timeout is 120 by default. */
const JOB_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
/** Seconds a job waited in the queue before a worker took it. */
const WAIT_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * What the worker process counts, on its metrics listener (WORKER_METRICS_PORT) beside the
 * process metrics; docs/observability.md says what each is for. Queue depth is the thumbs
 * service's (`thumbs_queue_jobs`): it is there even when no worker runs.
 */
export class ThumbsWorkerMetrics {
  private readonly wait: Histogram<'type'>;
  private readonly duration: Histogram<'type' | 'outcome'>;
  private readonly stalled: Counter<'queue'>;
  private readonly attempts: Counter<'outcome'>;
  private readonly deliveries: Counter<'result'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.wait = new Histogram({
      name: 'thumbs_job_wait_seconds',
      help: 'Time from a thumbnail job being queued to a worker starting it (first start only), by type.',
      labelNames: ['type'],
      buckets: WAIT_SECONDS,
      registers,
    });
    this.duration = new Histogram({
      name: 'thumbs_job_duration_seconds',
      help: 'Time a worker spent on one attempt of a thumbnail job, by type and outcome (done, timeout, or the failure class).',
      labelNames: ['type', 'outcome'],
      buckets: JOB_SECONDS,
      registers,
    });
    this.stalled = new Counter({
      name: 'thumbs_jobs_stalled_total',
      help: 'Jobs whose worker lost its lock (killed, or its event loop blocked) and that went back to the queue, by queue.',
      labelNames: ['queue'],
      registers,
    });
    this.attempts = new Counter({
      name: 'thumbs_callback_attempts_total',
      help: 'Completion-callback delivery attempts, by outcome (delivered, rejected, gone, disabled, refused, unsigned, error).',
      labelNames: ['outcome'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'thumbs_callback_deliveries_total',
      help: 'Completion-callback deliveries that ended, by result (delivered; gone: the receiver answered 410; failed: given up).',
      labelNames: ['result'],
      registers,
    });
    // The common series from the start, so rates and ratios read 0 rather than nothing before the
    // first event, and the first event counts (a series that appears at 1 is no increase to rate()).
    for (const type of THUMBNAIL_TYPES) {
      this.wait.zero({ type });
      this.duration.zero({ type, outcome: 'done' });
    }
    for (const queue of [THUMBNAIL_QUEUE, THUMBNAIL_CALLBACK_QUEUE]) this.stalled.inc({ queue }, 0);
    for (const outcome of ['delivered', 'rejected', 'gone', 'disabled', 'refused', 'unsigned', 'error'] as const)
      this.attempts.inc({ outcome }, 0);
    for (const result of ['delivered', 'gone', 'failed'] as const) this.deliveries.inc({ result }, 0);
  }

  jobStarted(type: string, waitedSeconds: number): void {
    this.wait.observe({ type }, Math.max(0, waitedSeconds));
  }

  jobEnded(type: string, outcome: string, seconds: number): void {
    this.duration.observe({ type, outcome }, Math.max(0, seconds));
  }

  jobStalled(queue: string): void {
    this.stalled.inc({ queue });
  }

  callbackAttempted(outcome: CallbackAttemptOutcome): void {
    this.attempts.inc({ outcome });
  }

  callbackEnded(result: CallbackDeliveryResult): void {
    this.deliveries.inc({ result });
  }
}
