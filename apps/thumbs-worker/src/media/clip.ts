/** Decoded frames, all the same size, RGBA. */
export interface Clip {
  width: number;
  height: number;
  frames: Buffer[];
  /** Display time of each frame. */
  delaysMs: number[];
}

/** Largest size that fits in a `box`×`box` square keeping the aspect ratio; never enlarges. */
export function fitInside(width: number, height: number, box: number): { width: number; height: number } {
  const scale = Math.min(1, box / width, box / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Where a representative stretch of `clipSeconds` starts in a `totalSeconds` long piece: about a
 * third in (past intros and fades from black), the whole thing when it is short.
 */
export function representativeStart(totalSeconds: number, clipSeconds: number): number {
  if (!Number.isFinite(totalSeconds) || totalSeconds <= clipSeconds) return 0;
  return Math.max(0, Math.min(totalSeconds / 3, totalSeconds - clipSeconds));
}
