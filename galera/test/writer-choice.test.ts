import { describe, expect, it } from 'vitest';
import {
  EVICTED_AFTER_MS,
  preferredWriter,
  trackedNode,
  trackFitness,
  type TrackedNode,
} from '../../infra/galera/writer-choice.mjs';

/*
 * The health agents' pick of the writer (infra/galera/writer-choice.mjs), without a cluster: each
 * agent follows every node from its own polls, and all of them must name the same writer.
 */

const POLL_MS = 250;

/** One agent's view of galera1..3, all Synced in view `confId` since the agent started at 0. */
function agentView(confId = 3): TrackedNode[] {
  const nodes = ['galera1', 'galera2', 'galera3'].map(trackedNode);
  nodes.forEach((node, i) => (node.uptime = 100 - i));
  poll(nodes, 0, 750, confId, () => false);
  return nodes;
}

function answers(node: TrackedNode, now: number, confId: number, localState = 4): void {
  node.answeredAt = now;
  node.sample = { at: now, readOnly: false, localState, clusterStatus: 'Primary', ready: 'ON', confId };
}

function silent(node: TrackedNode, error = 'PROTOCOL_SEQUENCE_TIMEOUT'): void {
  node.sample = undefined;
  node.error = error;
}

/** Polls from `from` to `to`: every node answers in view `confId` but those `quiet` says are silent then. */
function poll(
  nodes: TrackedNode[],
  from: number,
  to: number,
  confId: number,
  quiet: (node: TrackedNode, now: number) => boolean,
): void {
  for (let now = from; now <= to; now += POLL_MS) {
    for (const node of nodes) {
      if (quiet(node, now)) silent(node);
      else answers(node, now, confId);
    }
    trackFitness(nodes, now, 0);
  }
}

const named = (nodes: TrackedNode[], name: string): TrackedNode => nodes.find((node) => node.name === name)!;

describe('the health agents pick one writer', () => {
  it('agree after each saw a different node answer slowly for a second (a busy machine)', () => {
    const [agent2, agent3] = [agentView(), agentView()];
    // Each agent saw a different node miss a second of polls; neither was evicted.
    poll(agent2, 1000, 2000, 3, (node, now) => node.name === 'galera2' && now < 2000);
    poll(agent3, 1000, 2000, 3, (node, now) => node.name === 'galera3' && now < 2000);
    // Then the writer is killed: refused by both.
    for (const agent of [agent2, agent3]) {
      silent(named(agent, 'galera1'), 'ECONNREFUSED');
      trackFitness(agent, 2250, 0);
      poll(agent, 2500, 4000, 4, (node) => node.name === 'galera1');
    }
    expect(preferredWriter(agent2)?.name).toBe(preferredWriter(agent3)?.name);
    expect(preferredWriter(agent2)?.name).toBe('galera2');
  });

  it('moves the writes off a silent writer at once, and not back when it returns in an older view', () => {
    const agent = agentView();
    poll(agent, 1000, 1500, 3, (node) => node.name === 'galera1');
    expect(preferredWriter(agent)?.name).toBe('galera2');
    // Paused for 10 s: evicted; back, it reports the old view, then a state transfer, then Synced.
    poll(agent, 1750, 11_000, 4, (node) => node.name === 'galera1');
    expect(named(agent, 'galera1').fitSince).toBeUndefined();
    answers(named(agent, 'galera1'), 11_250, 3);
    trackFitness(agent, 11_250, 0);
    poll(agent, 11_500, 12_000, 5, () => false);
    expect(preferredWriter(agent)?.name).toBe('galera2');
  });

  it('takes the writes back after a silence shorter than an eviction (the node never left the cluster)', () => {
    const agent = agentView();
    poll(agent, 1000, 750 + EVICTED_AFTER_MS - POLL_MS, 3, (node) => node.name === 'galera1');
    expect(preferredWriter(agent)?.name).toBe('galera2');
    poll(agent, 750 + EVICTED_AFTER_MS, 5000, 3, () => false);
    expect(preferredWriter(agent)?.name).toBe('galera1');
  });
});
