// How a health agent (health-agent.mjs) judges its node and picks the writer from its samples of
// every node; no I/O, so every agent decides alike from what the nodes answered (docs/adr/0020).

/** A sample older than this is no sample: the node stopped answering. */
export const STALE_MS = 1500;
/** Nodes fit within this long of the agent's start count as fit since its start (the agents agree by uptime then). */
export const WARMUP_MS = 2000;
/**
 * Silent this long, a node has been evicted by the others (Galera suspects it after 2 s,
 * `evs.suspect_timeout`, and installs the new view about a second later): it has lost its place as
 * writer. A shorter silence is a busy machine or a slow poll, which another agent may not have seen.
 */
export const EVICTED_AFTER_MS = 3000;

/** A node as an agent follows it. */
export function trackedNode(name) {
  return {
    name,
    sample: undefined,
    error: 'starting',
    answeredAt: undefined,
    fitSince: undefined,
    unfitPolls: 0,
    uptime: 0,
  };
}

const fresh = (node, now) => node.sample !== undefined && now - node.sample.at <= STALE_MS;

/** Why `node` must not take traffic, or undefined when it may; `silent` when it did not answer. */
export function unfitReason(node, nodes, now) {
  if (!fresh(node, now)) return { text: `no answer from ${node.name} (${node.error ?? 'stale'})`, silent: true };
  const s = node.sample;
  if (s.localState !== 4) return { text: `wsrep_local_state ${s.localState}, not 4 (Synced)` };
  if (s.clusterStatus !== 'Primary') return { text: `wsrep_cluster_status ${s.clusterStatus}` };
  if (s.ready !== 'ON') return { text: `wsrep_ready ${s.ready}` };
  if (s.readOnly) return { text: 'read_only is ON' };
  const newer = nodes.find(
    (other) => fresh(other, now) && other.sample.clusterStatus === 'Primary' && other.sample.confId > s.confId,
  );
  if (newer) return { text: `wsrep_cluster_conf_id ${s.confId} is older than ${newer.name}'s ${newer.sample.confId}` };
  return undefined;
}

/**
 * Follows, every poll, since when each node has been fit without a break. A break is what every
 * agent sees alike: two polls in a row answered with an unfit state, a refused connection (no
 * server), or a silence long enough for the cluster to have evicted the node. A shorter silence
 * only keeps the node from being picked meanwhile: one agent's slow polls on a busy machine must
 * not give it a history the other agents do not share, or each may pick another node and none
 * passes as writer.
 */
export function trackFitness(nodes, now, startedAt) {
  for (const node of nodes) {
    const reason = unfitReason(node, nodes, now);
    if (reason === undefined) {
      node.unfitPolls = 0;
      node.fitSince ??= now - startedAt < WARMUP_MS ? startedAt : now;
      continue;
    }
    node.unfitPolls++;
    const silentFor = now - (node.answeredAt ?? startedAt);
    const broken = reason.silent
      ? node.error === 'ECONNREFUSED' || silentFor >= EVICTED_AFTER_MS
      : node.unfitPolls >= 2;
    if (broken) node.fitSince = undefined;
  }
}

/**
 * The node that should take every write: of the nodes not unfit for two polls in a row, the one
 * fit the longest without a break, then the longest-running server, then the name.
 */
export function preferredWriter(nodes) {
  return nodes
    .filter((node) => node.fitSince !== undefined && node.unfitPolls < 2)
    .sort((a, b) => a.fitSince - b.fitSince || b.uptime - a.uptime || a.name.localeCompare(b.name))[0];
}
