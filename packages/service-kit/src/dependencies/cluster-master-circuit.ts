import { Redis, type Cluster, type Command, type RedisOptions } from 'ioredis';
import type { LogSink } from '../logger.js';
import { DependencyUnavailableError, unavailableDependencyOf } from './dependency-failure.js';

/** Redis Cluster hash slots; each is served by one master. */
const SLOTS = 16384;

/** Errors that a master sent itself: it is there and answering, so it is not what failed. */
const ANSWERED_BY_THE_NODE = /^(?:CLUSTERDOWN|TRYAGAIN)\b/;

export interface ClusterMasterCircuitOptions {
  logger?: LogSink;
  /**
   * A master that has left a command unanswered this long is asked for a PING (default 200 ms).
   * With `probeTimeoutMs` it bounds how long a request waits on a master that stopped answering:
   * docs/scaling.md.
   */
  stallMs?: number;
  /** How long a probe's connection and PING may take together (default 300 ms). */
  probeTimeoutMs?: number;
  /** Between two probes of a master that is down (default 250 ms). */
  probeIntervalMs?: number;
}

type Stream = Parameters<Cluster['sendCommand']>[1];

/** What ioredis passes with the commands of a pipeline (every auto-pipelined command): the pipeline's slot. */
interface PipelineTarget {
  slot?: number;
}

interface DownMaster {
  timer?: NodeJS.Timeout;
  probing?: Promise<void>;
}

/** One sending of a command (a pipeline sends a command again after a redirection). */
interface Sent {
  command: Command;
  /** performance.now() */
  at: number;
}

/** `host:port`, as ioredis names a cluster node in its slot map. */
const nodeKey = (options: { host?: string; port?: number }): string => `${options.host}:${options.port}`;

function hostAndPort(key: string): { host: string; port: number } {
  const colon = key.lastIndexOf(':');
  return { host: key.slice(0, colon), port: Number(key.slice(colon + 1)) };
}

/**
 * Resolves after `ms`, but only once the event loop has also read what arrived meanwhile (the
 * timer's callback waits for the next check phase, after the poll phase): a process that was busy
 * or descheduled for longer than `ms` does not take an answer already on its socket for a silence.
 */
function lagTolerantDelay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(() => setImmediate(resolve), ms).unref();
  });
}

/**
 * The masters of a Redis Cluster that one process knows to be down (dead or not answering), shared
 * by every cluster connection of the process, so that no request waits on a master another one
 * already found gone. ioredis sends a command for a master that stopped answering to that master
 * anyway and waits out its command timeout, and until the cluster has replaced the master it has
 * nowhere else to send it. So a master is down, and the circuit open for it, once
 * - a command for it failed because of it: connection refused or closed, timed out, redirected to it in vain; or
 * - it has left a command unanswered for `stallMs` and then does not answer a PING on a connection
 *   of its own within `probeTimeoutMs` (a hung server keeps its connections open and says nothing).
 * From then on every command for one of its slots fails at once with DependencyUnavailableError
 * (503 1004, or the degraded answer the caller has), on every connection of the process; so do the
 * commands still waiting on it. A probe then asks the cluster for its slot map again and PINGs the
 * master, at once and every `probeIntervalMs`, until the master answers or the map names another
 * master for its slots (Redis promoted a replica): the circuit closes and commands go to whoever
 * serves the slots. Down and back are each logged once.
 */
export class ClusterMasterCircuit {
  private readonly down = new Map<string, DownMaster>();
  private readonly suspected = new Set<string>();
  private readonly clusters = new Set<Cluster>();
  /** Per master, the commands sent to it and not answered yet. */
  private readonly waiting = new Map<string, Set<Sent>>();
  private readonly watches = new Set<string>();
  private nodeOptions: RedisOptions = {};
  private readonly stallMs: number;
  private readonly probeTimeoutMs: number;
  private readonly probeIntervalMs: number;

  constructor(private readonly options: ClusterMasterCircuitOptions = {}) {
    this.stallMs = options.stallMs ?? 200;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 300;
    this.probeIntervalMs = options.probeIntervalMs ?? 250;
  }

  /** Whether commands for `key`'s slots fail at once now. */
  isDown(key: string): boolean {
    return this.down.has(key);
  }

  /**
   * Puts the circuit in front of a cluster connection: every command goes through its
   * `sendCommand` (auto-pipelined ones with their pipeline's slot). Detached when the connection ends.
   */
  attach(cluster: Cluster): void {
    this.clusters.add(cluster);
    this.nodeOptions = cluster.options.redisOptions ?? {};
    const send = cluster.sendCommand.bind(cluster);
    // Commands sent before the first connection wait for it (boot order). Later, with no node
    // reachable, ioredis would queue them until one is (no timeout runs there): they fail at once.
    // Its offline queue stays on, because it is also what lets a command wait for a node's
    // connection being opened (the promoted replica's), bounded by the command timeout. CLUSTER
    // is ioredis' own reconnect (its ready check).
    let connected = false;
    cluster.once('ready', () => (connected = true));
    cluster.sendCommand = (command: Command, stream?: Stream, target?: PipelineTarget) => {
      if (connected && cluster.status !== 'ready' && command.name !== 'cluster') {
        command.reject(new DependencyUnavailableError('redis'));
        return command.promise;
      }
      const owner = this.ownerOf(cluster, target?.slot ?? command.getSlot());
      if (owner === undefined) return send(command, stream, target);
      if (this.down.has(owner)) {
        command.reject(new DependencyUnavailableError('redis'));
        return command.promise;
      }
      const sent = send(command, stream, target);
      this.track(cluster, owner, command);
      return sent;
    };
    // A master's connection that ended (killed, or closed on us) is worth a PING, before any command waits on it.
    cluster.on('-node', (node: Redis) => {
      const key = nodeKey(node.options);
      if (this.ownsSlots(cluster, key)) void this.suspect(key);
    });
    cluster.once('end', () => this.detach(cluster));
  }

  /**
   * For `/ready`: the cluster connection is up, every slot has a master, and each of those masters
   * answers a PING now (one that does not is down from then on).
   */
  async check(cluster: Cluster): Promise<boolean> {
    if (cluster.status !== 'ready') return false;
    const owners = new Set<string>();
    for (let slot = 0; slot < SLOTS; slot++) {
      const owner = cluster.slots[slot]?.[0];
      if (owner === undefined) return false;
      owners.add(owner);
    }
    const answers = await Promise.all(
      [...owners].map(async (key) => {
        if (this.down.has(key)) return false;
        const answered = await this.ping(key);
        if (!answered) this.markDown(key, 'no answer to PING');
        return answered;
      }),
    );
    return answers.every(Boolean);
  }

  private detach(cluster: Cluster): void {
    this.clusters.delete(cluster);
    if (this.clusters.size > 0) return;
    for (const entry of this.down.values()) clearTimeout(entry.timer);
    this.down.clear();
    this.waiting.clear();
  }

  private ownerOf(cluster: Cluster, slot: number | null | undefined): string | undefined {
    return typeof slot === 'number' ? cluster.slots[slot]?.[0] : undefined;
  }

  private ownsSlots(cluster: Cluster, key: string): boolean {
    for (let slot = 0; slot < SLOTS; slot++) if (cluster.slots[slot]?.[0] === key) return true;
    return false;
  }

  /** Keeps `command` among its master's unanswered ones until it settles, and watches the master meanwhile. */
  private track(cluster: Cluster, owner: string, command: Command): void {
    let waiting = this.waiting.get(owner);
    if (!waiting) this.waiting.set(owner, (waiting = new Set()));
    const list = waiting;
    const sent: Sent = { command, at: performance.now() };
    list.add(sent);
    command.promise.then(
      () => list.delete(sent),
      (error: unknown) => {
        list.delete(sent);
        // Commands refused because the connection is being closed (shutdown) say nothing of the master.
        if (cluster.status === 'ready') this.failed(owner, error);
      },
    );
    this.watch(owner, this.stallMs);
  }

  /** Checks `owner` for a stall after `afterMs`, and again for as long as commands wait on it; one watch per master. */
  private watch(owner: string, afterMs: number): void {
    if (this.watches.has(owner)) return;
    this.watches.add(owner);
    const after = async (delayMs: number): Promise<void> => {
      await lagTolerantDelay(delayMs);
      const again = await this.checkStall(owner);
      if (again === undefined) this.watches.delete(owner);
      else await after(again);
    };
    void after(afterMs);
  }

  /**
   * A master whose oldest unanswered command is `stallMs` old must answer a PING, or it is down.
   * Returns when to look again, or undefined when nothing waits on it (or it is down).
   */
  private async checkStall(owner: string): Promise<number | undefined> {
    const waiting = this.waiting.get(owner);
    if (!waiting || waiting.size === 0 || this.down.has(owner)) return undefined;
    const now = performance.now();
    let oldest = now;
    for (const sent of waiting) oldest = Math.min(oldest, sent.at);
    if (now - oldest < this.stallMs) return this.stallMs - (now - oldest);
    const stalled = [...waiting].filter((sent) => now - sent.at >= this.stallMs);
    const answered = await this.ping(owner);
    // Slow, not gone: its commands keep their own timeout.
    if (answered || stalled.every((sent) => !waiting.has(sent))) return waiting.size > 0 ? this.stallMs : undefined;
    this.markDown(
      owner,
      `a command unanswered for ${this.stallMs} ms and no answer to PING within ${this.probeTimeoutMs} ms`,
    );
    return undefined;
  }

  private failed(owner: string, error: unknown): void {
    if (error instanceof DependencyUnavailableError || unavailableDependencyOf(error) !== 'redis') return;
    const message = error instanceof Error ? error.message : String(error);
    if (ANSWERED_BY_THE_NODE.test(message)) return;
    this.markDown(owner, message);
  }

  private async suspect(key: string): Promise<void> {
    if (this.down.has(key) || this.suspected.has(key)) return;
    this.suspected.add(key);
    try {
      if (!(await this.ping(key))) this.markDown(key, 'connection lost, no answer to PING');
    } finally {
      this.suspected.delete(key);
    }
  }

  private markDown(key: string, reason: string): void {
    if (this.down.has(key) || this.clusters.size === 0) return;
    this.down.set(key, {});
    this.options.logger?.warn(
      'redis cluster master unavailable; commands for its slots fail at once until it answers or is replaced',
      { node: key, error: reason },
    );
    const waiting = this.waiting.get(key);
    this.waiting.delete(key);
    for (const sent of waiting ?? []) sent.command.reject(new DependencyUnavailableError('redis'));
    void this.probe(key);
  }

  private probe(key: string): Promise<void> {
    const entry = this.down.get(key);
    if (!entry) return Promise.resolve();
    entry.probing ??= this.probeOnce(key, entry).finally(() => {
      entry.probing = undefined;
    });
    return entry.probing;
  }

  private async probeOnce(key: string, entry: DownMaster): Promise<void> {
    const [answered] = await Promise.all([this.ping(key), this.refreshSlots()]);
    if (this.down.get(key) !== entry) return;
    if (![...this.clusters].some((cluster) => this.ownsSlots(cluster, key))) {
      this.down.delete(key);
      this.options.logger?.info('redis cluster master replaced: another master serves its slots', { node: key });
    } else if (answered) {
      this.down.delete(key);
      this.options.logger?.info('redis cluster master answering again', { node: key });
    } else {
      entry.timer = setTimeout(() => void this.probe(key), this.probeIntervalMs);
      entry.timer.unref();
    }
  }

  /** Asks the cluster for its slot map on every connection (each keeps its own). */
  private async refreshSlots(): Promise<void> {
    await Promise.all(
      [...this.clusters].map((cluster) => new Promise<void>((resolve) => cluster.refreshSlotsCache(() => resolve()))),
    );
  }

  /** A PING on a connection of its own, so that nothing queued on the cluster's connection delays it. */
  private async ping(key: string): Promise<boolean> {
    const client = new Redis({
      ...this.nodeOptions,
      ...hostAndPort(key),
      // Nothing but the PING: no CLIENT SETNAME / SETINFO round trips first.
      connectionName: undefined,
      disableClientInfo: true,
      lazyConnect: true,
      enableOfflineQueue: true,
      enableReadyCheck: false,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      // The deadline below decides; these only keep the connection from outliving it for long.
      connectTimeout: this.probeTimeoutMs * 4,
      commandTimeout: this.probeTimeoutMs * 4,
    });
    client.on('error', () => undefined);
    try {
      return await Promise.race([
        client.ping().then(
          (reply) => reply === 'PONG',
          () => false,
        ),
        lagTolerantDelay(this.probeTimeoutMs).then(() => false),
      ]);
    } finally {
      client.disconnect();
    }
  }
}
