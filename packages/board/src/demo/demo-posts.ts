import { makeAnimatedGif, makeMp4, makePng, makeWebm } from '../testing/media.js';

/** A sample post of the demo board; its file is made locally the first time. */
export interface DemoPost {
  id: number;
  ext: string;
  /** What it is, for the start banner and docs. */
  label: string;
  width: number;
  height: number;
  /** Seconds, for videos. */
  duration: number | null;
  make(): Promise<Buffer>;
}

/** The demo board's posts (ids 900000001–900000004): a video, an animation, a still, a portrait video. */
export const DEMO_POSTS: readonly DemoPost[] = [
  {
    id: 900000001,
    ext: 'webm',
    label: 'a 3-second WebM video',
    width: 640,
    height: 360,
    duration: 3,
    make: () => makeWebm(3, 640, 360),
  },
  {
    id: 900000002,
    ext: 'gif',
    label: 'an animated GIF',
    width: 400,
    height: 300,
    duration: null,
    make: () => makeAnimatedGif(20, 400, 300),
  },
  {
    id: 900000003,
    ext: 'png',
    label: 'a still PNG',
    width: 800,
    height: 600,
    duration: null,
    make: () => makePng(800, 600),
  },
  {
    id: 900000004,
    ext: 'mp4',
    label: 'a 2-second portrait MP4 video',
    width: 360,
    height: 640,
    duration: 2,
    make: () => makeMp4(2, 360, 640),
  },
];
