interface Entry<T> {
  value: T;
  expires: number;
  /** Read since it was last written or passed over by an eviction: it gets a second chance. */
  read: boolean;
}

/**
 * A bounded in-process cache whose entries expire, dropping the least recently used first, by
 * second chance ("clock"): a Map keeps insertion order, a read only marks its entry, and an
 * eviction moves marked entries from the front to the back (unmarked) until it finds one that was
 * not read since (each move follows a read, so their cost is the reads'). A read never changes the Map: re-inserting on every read (as this cache once
 * did) filled the Map's table with deleted slots, so a cache of n entries rebuilt its n-entry
 * table every few thousand reads, garbage that grew with the number of links held (issue 37).
 * `generation` moves on every drop: a fill that read its value before a drop passes the generation
 * it started with and is not remembered, so an edit announced while a load was in flight cannot
 * be undone by that load.
 */
export class LocalLru<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private drops = 0;

  /** `capacity` 0 turns the cache off (nothing is remembered). */
  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Taken before a load; handed back to `set` with its result. */
  get generation(): number {
    return this.drops;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The live value, or undefined; synchronous and without I/O. */
  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    if (!entry.read) entry.read = true;
    return entry.value;
  }

  /** Whether a live value is held, without touching its recency. */
  has(key: string): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expires > this.now();
  }

  /** Remembers `value` unless the cache is off or something was dropped since `generation`. */
  set(key: string, value: T, generation = this.drops): void {
    if (this.capacity === 0 || generation !== this.drops) return;
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.evictOne();
    this.entries.set(key, { value, expires: this.now() + this.ttlMs, read: false });
  }

  /**
   * Drops the oldest entry not read since it was last passed over. Each entry moved to the back
   * was read once since its last move, so the moves never outnumber the reads.
   */
  private evictOne(): void {
    // A Map's iterator visits entries moved to the back again, after the rest, unmarked: the loop ends.
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.read) {
        entry.read = false;
        this.entries.set(key, entry);
        continue;
      }
      return;
    }
  }

  delete(key: string): void {
    this.drops++;
    this.entries.delete(key);
  }

  clear(): void {
    this.drops++;
    this.entries.clear();
  }
}
