/*
 * How a pick skips excluded images without scanning (the size index's filtered pick runs the same
 * steps in Lua): the excluded ids' ranks among the eligible members are looked up (ZRANK, O(log n)
 * each), a rank is drawn among the n - k remaining ones, and that draw is mapped past the excluded
 * ranks (O(k)). Every remaining member is equally likely and no excluded one can come out.
 */

/** The distinct excluded ranks below `eligible`, ascending. */
export function excludedRanks(ranks: readonly number[], eligible: number): number[] {
  return [...new Set(ranks.filter((rank) => rank >= 0 && rank < eligible))].sort((a, b) => a - b);
}

/**
 * The `draw`-th member (0-based) among those not excluded, as a rank among all: each excluded
 * rank at or before the position so far pushes it one further. `excluded` is ascending.
 */
export function rankPastExcluded(draw: number, excluded: readonly number[]): number {
  let rank = draw;
  for (const skipped of excluded) {
    if (skipped > rank) break;
    rank++;
  }
  return rank;
}
