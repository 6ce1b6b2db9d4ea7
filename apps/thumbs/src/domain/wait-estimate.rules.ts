/** What is known about a queued or running job when estimating when to look again. */
export interface WaitEstimateInput {
  /** 'active' when a worker runs it; 'delayed' while it backs off before a retry; otherwise waiting. */
  state: 'active' | 'waiting' | 'delayed';
  /** Moving average of recent job durations. */
  averageJobMs: number;
  /** Jobs that run side by side (workers seen on the queue, at least the running jobs, at least 1). */
  slots: number;
  /** Jobs that a worker takes before this one: running ones plus waiting ones in front. */
  jobsAhead: number;
  /** For a running job: ms since it started. */
  elapsedMs?: number;
  /** For a running job: the worker's progress, 0–100. */
  progress?: number;
  /** For a delayed job: ms until it is due. */
  delayMs?: number;
}

/** Never ask a client to poll sooner than this; a thumbnail takes at least this long. */
export const MIN_WAIT_MS = 500;
/** Progress below this says too little about the remaining time. */
const PROGRESS_TRUSTED_FROM = 5;

/**
 * Milliseconds until the job is probably done. A running job: from its progress when it has
 * reported some, else the average minus the time spent. A queued job: it starts after
 * `floor(jobsAhead / slots)` rounds of the average job, then takes one average job itself.
 */
export function estimateWaitMs(input: WaitEstimateInput): number {
  const average = Math.max(1, input.averageJobMs);
  const slots = Math.max(1, Math.floor(input.slots));
  let wait: number;
  if (input.state === 'active') {
    const elapsed = Math.max(0, input.elapsedMs ?? 0);
    const progress = input.progress ?? 0;
    wait =
      progress >= PROGRESS_TRUSTED_FROM && progress < 100 ? (elapsed * (100 - progress)) / progress : average - elapsed;
  } else {
    const rounds = Math.floor(Math.max(0, input.jobsAhead) / slots);
    wait = (rounds + 1) * average + (input.state === 'delayed' ? Math.max(0, input.delayMs ?? 0) : 0);
  }
  return Math.max(MIN_WAIT_MS, Math.round(wait));
}
