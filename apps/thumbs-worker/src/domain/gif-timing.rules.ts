/*
 * A clip's frames may each have their own display time (an animation's thinned pages); the GIF
 * keeps it frame by frame, within what its Graphic Control Extension can say.
 */

/** A frame's GIF delay in centiseconds: rounded, and at most the 16 bits a GIF has for it. */
export const gifDelayOf = (ms: number): number => Math.min(0xffff, Math.max(0, Math.round(ms / 10)));
