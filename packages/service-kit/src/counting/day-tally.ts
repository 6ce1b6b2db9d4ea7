import type { LogSink } from '../logger.js';
import { ChunkedFlusher } from './chunked-flusher.js';
import { nextUtcDayStart, utcDay } from './utc-day.js';

export interface DayTallyOptions<K, V, C> {
  /** A key's accumulator for one UTC day, made at its first count of the day. */
  empty: () => V;
  /** Appends what `value` holds (`key`'s counts on `day`) to `into`, as the counts Redis takes. */
  collect: (day: string, key: K, value: V, into: C[]) => void;
  /** The key a collected count belongs to. */
  keyOf: (count: C) => K;
  /** Adds one chunk of counts to Redis, at most once per id. */
  send: (chunkId: string, counts: C[]) => Promise<void>;
  /** How often the tally goes to Redis. */
  flushMs: number;
  logger: LogSink;
  /** Names the counts in the log, e.g. "visit counts". */
  what: string;
  now?: () => number;
}

/**
 * The first step of counting on a hot path (count in process → flush to Redis → move to MySQL):
 * per UTC day, one accumulator per key, of a shape the configuration chooses (a number of visits,
 * the routes a key called, …), so a key can carry more than one number. A subclass adds to
 * `at(key)`: one Map lookup per count, and one accumulator made per key and flush. Every `flushMs`
 * a ChunkedFlusher sends what was counted to Redis; a day that ends is set aside whole.
 */
export class DayTally<K, V, C> {
  private readonly now: () => number;
  private day = '';
  private dayEndsAt = 0;
  private today = new Map<K, V>();
  /** Earlier days' counts not sent yet (a flush spanning midnight). */
  private earlier: C[] = [];
  private readonly flusher: ChunkedFlusher<C>;

  constructor(private readonly options: DayTallyOptions<K, V, C>) {
    this.now = options.now ?? Date.now;
    this.flusher = new ChunkedFlusher({
      drain: () => this.drain(),
      send: options.send,
      flushMs: options.flushMs,
      logger: options.logger,
      what: options.what,
    });
  }

  /** The accumulator of `key` for the current UTC day, to add to. */
  protected at(key: K): V {
    const now = this.now();
    if (now >= this.dayEndsAt) this.startDay(now);
    let value = this.today.get(key);
    if (value === undefined) this.today.set(key, (value = this.options.empty()));
    return value;
  }

  private startDay(now: number): void {
    this.earlier.push(...this.collectToday());
    this.today = new Map();
    this.day = utcDay(now);
    this.dayEndsAt = nextUtcDayStart(now);
  }

  private collectToday(): C[] {
    const counts: C[] = [];
    for (const [key, value] of this.today) this.options.collect(this.day, key, value, counts);
    return counts;
  }

  /** Everything counted since the last drain, emptying the tally (the flusher's source). */
  drain(): C[] {
    const drained = [...this.earlier, ...this.collectToday()];
    this.earlier = [];
    this.today = new Map();
    return drained;
  }

  /** The counts of `key` this process holds and Redis does not have yet (tallied, or waiting for a retry). */
  unflushedOf(key: K): C[] {
    const { keyOf, collect } = this.options;
    const found = this.earlier.filter((count) => keyOf(count) === key);
    const value = this.today.get(key);
    if (value !== undefined) collect(this.day, key, value, found);
    for (const count of this.flusher.waiting) if (keyOf(count) === key) found.push(count);
    return found;
  }

  /** Sends what is tallied (and what failed before) to Redis; one flush at a time. */
  flush(): Promise<void> {
    return this.flusher.flush();
  }

  start(): void {
    this.flusher.start();
  }

  /** Stops the timer and sends what is left (at shutdown). */
  stop(): Promise<void> {
    return this.flusher.stop();
  }
}
