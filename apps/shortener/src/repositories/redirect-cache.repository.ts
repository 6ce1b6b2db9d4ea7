import { LocalLru, logUnlessUnavailable, type Logger } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import { Cluster } from 'ioredis';
import { EventEmitter, once } from 'node:events';
import type { CompiledRule } from '../domain/redirect-rules.rules.js';
import type { CachedLink } from '../domain/short-url-record.rules.js';

export interface RedirectCacheOptions {
  redis: RedisClient;
  /** A connection of its own: a subscribed connection cannot run other commands. */
  subscriber: RedisClient;
  redisPrefix: string;
  /** Most entries held in process; 0 turns the in-process layer off. */
  size: number;
  localTtlMs: number;
  redisTtlSeconds: number;
  logger: Logger;
  /** The source of truth, asked on a miss in both layers (the redirect service's redirectLinkLoader). */
  load(code: string): Promise<CachedLink | null>;
  now?: () => number;
}

export type { CachedLink };

/**
 * A link without expiry is stored in Redis as its bare url (the format instances before expiry
 * existed read and write); one with expiry as LINK_MARK + JSON. No url starts with that character.
 */
const LINK_MARK = '\u0001';
/**
 * A link that decides (a password or rules, issue 38): its own mark, so an instance of an earlier release
 * during a rolling deploy never reads it as a plain link and redirects past the password (it sends
 * a broken Location instead, until it is replaced).
 */
const DECIDING_LINK_MARK = '\u0002';

export function encodeLink(link: CachedLink): string {
  if (link.protected || link.rules !== null)
    return (
      DECIDING_LINK_MARK +
      JSON.stringify({ u: link.url, e: link.expiresAt, m: link.limited, p: link.protected, r: link.rules })
    );
  if (link.expiresAt === null && !link.limited) return link.url;
  return LINK_MARK + JSON.stringify({ u: link.url, e: link.expiresAt, m: link.limited });
}

export function decodeLink(value: string): CachedLink {
  const mark = value.charCodeAt(0);
  if (mark !== 1 && mark !== 2) return { url: value, expiresAt: null, limited: false, protected: false, rules: null };
  const { u, e, m, p, r } = JSON.parse(value.slice(1)) as {
    u: string;
    e: number | null;
    m: boolean;
    p?: boolean;
    r?: CompiledRule[] | null;
  };
  return { url: u, expiresAt: e, limited: m, protected: p === true, rules: r ?? null };
}

/**
 * Marks an edited or deleted code in Redis as "ask MySQL": a reader that loaded the old url just
 * before the change cannot put it back (fills are SET NX), and neither can a late edit's write land
 * over a delete's, since both write the same marker and MySQL then answers for both.
 */
const TOMBSTONE = '';
const TOMBSTONE_TTL_SECONDS: Record<Exclude<CacheChange, 'credited'>, number> = {
  deleted: 3600,
  // Only needs to outlive the reads that were in flight during the edit; then the url is cached again.
  edited: 60,
};

/**
 * What happened to a code. A credit-only edit leaves the redirect as it is but is still announced:
 * the instances' preview caches hold the credit.
 */
export type CacheChange = 'edited' | 'deleted' | 'credited';

/**
 * Marks a code MySQL does not have, so a flood of made-up codes on the public redirect costs one
 * MySQL read per code and window. Written NX after the read, so it never lands over a url that a
 * create wrote meanwhile, and a create's SET replaces it at once.
 */
const UNKNOWN = '\u0000';
const UNKNOWN_TTL_SECONDS = 30;

/**
 * code → target url (and expiry) for redirects, in two layers: a bounded LRU in process (peeked
 * synchronously by the redirect service, the fast lane's too) and a shared Redis cache in front of
 * MySQL. Edits and deletes mark the Redis entry
 * and are announced on `<prefix>shortener:invalidate`, so every instance drops its copy.
 *
 * Emits `invalidated` (code) after a peer's announcement has been applied here, and `reset` when
 * the local layer was dropped because announcements may have been missed: other in-process caches
 * of short URLs (the previews) follow both.
 */
export class RedirectCacheRepository extends EventEmitter {
  private readonly local: LocalLru<CachedLink>;
  readonly channel: string;
  private started = false;

  constructor(private readonly options: RedirectCacheOptions) {
    super();
    this.local = new LocalLru(options.size, options.localTtlMs, options.now);
    this.channel = `${options.redisPrefix}shortener:invalidate`;
  }

  private key(code: string): string {
    return `${this.options.redisPrefix}shortener:url:${code}`;
  }

  private readonly onMessage = (channel: string, code: string): void => {
    if (channel !== this.channel) return;
    this.evict(code);
    this.emit('invalidated', code);
  };

  /** Announcements may have been missed while disconnected: start over from Redis. */
  private readonly onReady = (): void => {
    this.clear();
    this.emit('reset');
    if (this.subscribesAgain()) this.subscribeAgain();
  };

  /**
   * Whether the subscription is ours to renew after a reconnect: a connection made with
   * `createRedis(…, { subscriber: true })` leaves it to us, since ioredis' own renewal rejects
   * unhandled when it fails. A Cluster renews its subscriber connection itself, with a catch.
   */
  private subscribesAgain(): boolean {
    const { subscriber } = this.options;
    return !(subscriber instanceof Cluster) && subscriber.options.autoResubscribe === false;
  }

  /**
   * A SUBSCRIBE that fails on a connection that came back (timed out on a stalled Redis, or the
   * connection dropped again) is tried again on a new connection: the next 'ready' comes here.
   */
  private subscribeAgain(): void {
    const subscriber = this.options.subscriber;
    subscriber.subscribe(this.channel).catch((error: unknown) => {
      this.cacheFailed(error);
      if (this.started && subscriber.status === 'ready') subscriber.disconnect(true);
    });
  }

  private readonly onNode = (node: EventEmitter): void => {
    node.once('ready', this.onReady);
  };

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.options.subscriber.on('message', this.onMessage);
    // Subscribing before the connection's ready check makes ioredis send INFO in subscriber mode.
    if (this.options.subscriber.status !== 'ready') await once(this.options.subscriber, 'ready');
    this.options.subscriber.on('ready', this.onReady);
    // A Redis Cluster moves the subscription to another node by itself and stays 'ready'; a node
    // connection that becomes ready again ends an outage in which announcements may have been missed.
    this.options.subscriber.on('+node', this.onNode);
    await this.options.subscriber.subscribe(this.channel);
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.options.subscriber.off('message', this.onMessage);
    this.options.subscriber.off('ready', this.onReady);
    this.options.subscriber.off('+node', this.onNode);
    await this.options.subscriber.unsubscribe(this.channel).catch(() => undefined);
  }

  /** The in-process answer, or undefined; never does I/O (the fast lane's redirects start here). */
  peek(code: string): CachedLink | undefined {
    return this.local.get(code);
  }

  /**
   * Moves on every drop from memory (an announced edit or delete, a reset): what a peek found is
   * still current while the generation has not moved.
   */
  get generation(): number {
    return this.local.generation;
  }

  /** The link for `code` from the fastest layer that has it; null when no entry exists. */
  async get(code: string): Promise<CachedLink | null> {
    return this.peek(code) ?? this.fetch(code);
  }

  /**
   * The link for `code` from Redis, else from the source, for a caller that has peeked already;
   * remembered in memory unless something was dropped while it was read. Null when no entry exists.
   */
  async fetch(code: string): Promise<CachedLink | null> {
    const generation = this.local.generation;
    const key = this.key(code);
    let shared: string | null = null;
    try {
      shared = await this.options.redis.get(key);
    } catch (error) {
      this.cacheFailed(error);
    }
    if (shared === UNKNOWN) return null;
    let link = shared === TOMBSTONE || shared === null ? null : decodeLink(shared);
    if (link === null) {
      link = await this.options.load(code);
      if (link === null) {
        if (shared === null) {
          await this.options.redis.set(key, UNKNOWN, 'EX', UNKNOWN_TTL_SECONDS, 'NX').catch(this.cacheFailed);
        }
        return null;
      }
      // NX: an edit that wrote the key meanwhile wins over what we loaded before it.
      if (shared === null) {
        await this.options.redis
          .set(key, encodeLink(link), 'EX', this.options.redisTtlSeconds, 'NX')
          .catch(this.cacheFailed);
      }
    }
    this.local.set(code, link, generation);
    return link;
  }

  /** A new entry: cached at once so its first redirect is already warm. */
  async put(code: string, link: CachedLink): Promise<void> {
    this.local.set(code, link);
    await this.options.redis
      .set(this.key(code), encodeLink(link), 'EX', this.options.redisTtlSeconds)
      .catch(this.cacheFailed);
  }

  /** After an edit or a delete: mark the shared entry "ask MySQL" (unless only the credit changed), then tell every instance. */
  async invalidate(code: string, change: CacheChange): Promise<void> {
    this.evict(code);
    try {
      if (change !== 'credited')
        await this.options.redis.set(this.key(code), TOMBSTONE, 'EX', TOMBSTONE_TTL_SECONDS[change]);
      await this.options.redis.publish(this.channel, code);
    } catch (error) {
      // The database change stands; peers catch up when their local entries expire.
      this.options.logger.error('redirect cache invalidation failed', { error, code });
    }
  }

  /** Redis trouble is the connection monitor's to report (once per outage); the cache only degrades. */
  private readonly cacheFailed = (error: unknown): void =>
    logUnlessUnavailable(this.options.logger, 'redirect cache failed')(error);

  private evict(code: string): void {
    this.local.delete(code);
  }

  clear(): void {
    this.local.clear();
  }

  get localSize(): number {
    return this.local.size;
  }
}
