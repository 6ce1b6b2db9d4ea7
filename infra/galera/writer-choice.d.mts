// Types of writer-choice.mjs, for the galera/ suite's tests of it.
export interface NodeSample {
  at: number;
  readOnly: boolean;
  localState: number;
  clusterStatus: string;
  ready: string;
  confId: number;
}

export interface TrackedNode {
  name: string;
  sample: NodeSample | undefined;
  error: string | undefined;
  answeredAt: number | undefined;
  fitSince: number | undefined;
  unfitPolls: number;
  uptime: number;
}

export const STALE_MS: number;
export const WARMUP_MS: number;
export const EVICTED_AFTER_MS: number;
export function trackedNode(name: string): TrackedNode;
export function unfitReason(
  node: TrackedNode,
  nodes: readonly TrackedNode[],
  now: number,
): { text: string; silent?: true } | undefined;
export function trackFitness(nodes: readonly TrackedNode[], now: number, startedAt: number): void;
export function preferredWriter(nodes: readonly TrackedNode[]): TrackedNode | undefined;
