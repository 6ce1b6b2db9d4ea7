/**
 * Counts by name that a tally keeps from one flush to the next (issue 37). `reset()` zeroes in
 * place the names counted since the last reset and drops those that were not, so a name counted
 * flush after flush costs no allocation at all: no new Map per flush whose entries would live
 * about a second, long enough for the young generation to copy them and promote them to the old.
 * It holds at most the names of the last two periods between resets.
 */
export class ReusableCounts<K> {
  /** Each name's count in a box of its own, so a count is one lookup and an increment (no Map#set). */
  private readonly counts = new Map<K, { n: number }>();

  /** Adds `n` (one by default) to `key`. */
  add(key: K, n = 1): void {
    const count = this.counts.get(key);
    if (count === undefined) this.counts.set(key, { n });
    else count.n += n;
  }

  /** Calls `visit` with each name counted since the last reset and its count, in the order first counted. */
  forEach(visit: (key: K, n: number) => void): void {
    // Map#forEach, not for…of: no [key, value] pair is made per entry.
    this.counts.forEach((count, key) => {
      if (count.n > 0) visit(key, count.n);
    });
  }

  /** Starts counting from zero: names counted since the last reset stay (at 0), the others go. */
  reset(): void {
    const counts = this.counts;
    // Deleting the entry a Map is visiting is defined: the others are still visited once.
    counts.forEach((count, key) => {
      if (count.n === 0) counts.delete(key);
      else count.n = 0;
    });
  }

  /** Names held: counted since the last reset, or in the period before it. */
  get size(): number {
    return this.counts.size;
  }
}
