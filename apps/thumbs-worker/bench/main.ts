/*
 * pnpm bench thumbs — the thumbnail worker against the ffmpeg floor and reference.
 * Generates its inputs, serves them from a local fake board, runs the real worker process
 * (dist/main.js) and measures it from /proc. Not a test: numbers vary with machine load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { appBuildFile, formatTable, stopProcess } from '@pawlink/bench';
import { makeAnimatedGif, makeMp4, makePng, makeWebm, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import {
  THUMBNAIL_JOB,
  THUMBNAIL_QUEUE,
  thumbnailJobId,
  thumbnailQueuePrefix,
  type ThumbnailJobPayload,
  type ThumbnailJobResult,
} from '@pawlink/contracts';
import { loadBaseConfig } from '@pawlink/service-kit';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { measureGif } from './gif-comparison.js';
import { measureMp4, MP4_CRF, MP4_PRESET } from './mp4-comparison.js';
import { cpuMs, sampleMemory } from './proc-stats.js';
import { measureWebp, WEBP_QUALITY } from './webp-comparison.js';
import { median } from './bench-inputs.js';

const MAIN = appBuildFile(import.meta.url, 'main.js');
const base = loadBaseConfig(process.env);
const runId = randomBytes(4).toString('hex');
// its own namespace, so another benchmark's cleanup of `<prefix>bench:*` cannot touch it
const prefix = `${base.redis.prefix}thumbsbench${runId}:`;
const log = (line: string): void => void process.stdout.write(`${line}\n`);
/** BENCH_THUMBS_SECTIONS=gif,webp,mp4 runs the in-process comparisons alone (a minute or two); default: everything. */
const sections = new Set(
  (process.env.BENCH_THUMBS_SECTIONS ?? 'jobs,gif,webp,mp4,throughput').split(',').map((s) => s.trim()),
);
/** Each measured job (and its floor) runs BENCH_THUMBS_RUNS times on its own copy of the input; tables show medians. */
const runs = Math.max(1, Number(process.env.BENCH_THUMBS_RUNS ?? 3));
/**
 * BENCH_THUMBS_BASELINE: another build's `dist/main.js` (a copy of main's, say). The jobs section
 * then runs every job on it too, turn about with this build's on the same copy of the input, so
 * the machine's load falls on both alike.
 */
const baselineMain = process.env.BENCH_THUMBS_BASELINE;
const baselinePrefix = `${prefix}baseline:`;

interface Input {
  name: string;
  ext: string;
  file: string;
  md5: string;
  bytes: number;
}

interface Measure {
  wallMs: number;
  cpuMs: number;
  peakMb?: number;
  outBytes?: number;
}

const fmtMs = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const fmtBytes = (n: number): string =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(0)} KB`;
const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

function table(headers: string[], rows: string[][]): void {
  for (const line of formatTable(headers, rows)) log(line);
}

/** `gif` with a comment extension holding `text` (up to 255 bytes) before its trailer. */
const withGifComment = (gif: Buffer, text: string): Buffer =>
  Buffer.concat([
    gif.subarray(0, -1),
    Buffer.from([0x21, 0xfe, Buffer.byteLength(text)]),
    Buffer.from(text),
    Buffer.from([0x00]),
    gif.subarray(-1),
  ]);

/** Runs a command to completion; wall and CPU (ours plus reaped children) and its peak RSS. */
async function measureCommand(command: string, args: string[]): Promise<Measure> {
  const cpuBefore = await cpuMs('self');
  const started = performance.now();
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const memory = sampleMemory(process.pid, 20);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallMs = performance.now() - started;
  const mem = await memory.stop();
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`);
  return { wallMs, cpuMs: (await cpuMs('self')) - cpuBefore, peakMb: mem.childPeakMb };
}

const ffmpegFloor = (input: Input): Promise<Measure> =>
  measureCommand('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', input.file, '-f', 'null', '-']);

async function ffmpegReferenceGif(input: Input, duration: number, outDir: string): Promise<Measure> {
  const out = path.join(outDir, `ref-${input.md5}.gif`);
  const start = duration > 3 ? Math.min(duration / 3, duration - 3) : 0;
  const measure = await measureCommand('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    ...(start > 0 ? ['-ss', start.toFixed(3)] : []),
    '-i',
    input.file,
    '-t',
    '3',
    '-vf',
    'fps=10,scale=w=320:h=320:force_original_aspect_ratio=decrease,split[a][b];[a]palettegen[p];[b][p]paletteuse',
    '-loop',
    '0',
    '-y',
    out,
  ]);
  return { ...measure, outBytes: (await stat(out)).size };
}

function startWorker(
  mediaDir: string,
  board: FakeBoard,
  extraEnv: Record<string, string> = {},
  main = MAIN,
): ChildProcess {
  return spawn(process.execPath, [main], {
    env: {
      ...process.env,
      REDIS_PREFIX: prefix,
      MEDIA_DIR: mediaDir,
      BOARD_URL: board.url,
      BOARD_STATIC_URL: board.staticUrl,
      BOARD_USER_AGENT: 'PawlinkBench/1.0',
      LOG_LEVEL: 'error',
      WORKER_CONCURRENCY: '1',
      // the fake board listens on loopback: the one host allowed at a private address
      THUMBS_DOWNLOAD_PRIVATE_HOSTS: new URL(board.staticUrl).host,
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** A running job may take a while to finish after SIGTERM. */
const stopWorker = (child: ChildProcess): Promise<void> => stopProcess(child, 30_000);

type BenchQueue = Queue<ThumbnailJobPayload, ThumbnailJobResult>;

async function runJob(queue: BenchQueue, md5: string): Promise<ThumbnailJobResult & { wallMs: number }> {
  const jobId = thumbnailJobId(md5, 'gif');
  await queue.add(THUMBNAIL_JOB, { md5, type: 'gif', requestedAt: Date.now() }, { jobId, attempts: 1 });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not finish in 180 s`);
    const state = await queue.getJobState(jobId);
    if (state === 'completed' || state === 'failed') {
      const job = (await queue.getJob(jobId))!;
      if (state === 'failed') throw new Error(`job ${jobId} failed: ${job.failedReason}`);
      return { ...job.returnvalue, wallMs: job.finishedOn! - job.processedOn! };
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function waitForReady(queue: BenchQueue, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await queue.getWorkersCount()) < count) {
    if (Date.now() > deadline) throw new Error(`${count} worker(s) did not come up in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function deleteKeys(redis: Redis): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** WebP against the GIF of the same decoded frames, and against the decode floor. */
async function webpSection(inputs: Array<Input & { duration: number }>): Promise<void> {
  const measures = await measureWebp(inputs, runs);
  const rows: string[][] = [];
  const qualityRows: string[][] = [];
  for (const [i, m] of measures.entries()) {
    const floor = await ffmpegFloor(inputs[i]!);
    rows.push([
      m.name,
      String(m.frames),
      fmtMs(floor.wallMs),
      fmtMs(m.decodeMs),
      fmtMs(m.gifMs),
      fmtMs(m.pngMs),
      fmtMs(m.webpMs),
      fmtMs(m.thumbhashMs),
      ratio(m.webpMs, floor.wallMs),
      fmtMs(m.gifPngJobMs),
      fmtMs(m.allJobMs),
      ratio(m.allJobMs, m.gifPngJobMs),
    ]);
    qualityRows.push([
      m.name,
      fmtBytes(m.gifBytes),
      fmtBytes(m.webpBytes),
      ratio(m.webpBytes, m.gifBytes),
      `${m.gif.psnrRgb.toFixed(1)} / ${m.webp.psnrRgb.toFixed(1)}`,
      `${m.gif.psnrLuma.toFixed(1)} / ${m.webp.psnrLuma.toFixed(1)}`,
      `${m.gif.ssimLuma.toFixed(4)} / ${m.webp.ssimLuma.toFixed(4)}`,
    ]);
  }
  log('');
  log(
    `WebP (libwebp quality ${WEBP_QUALITY}, effort 4, mixed lossy/lossless frames) vs the GIF of the same decoded frames, in this process; floor = \`ffmpeg -i <file> -f null -\``,
  );
  log(
    `encoders alone one after the other; then whole jobs as the worker runs them (GIF streamed during a video's decode, files encoded at once), median of ${runs}`,
  );
  log('target: GIF+PNG+WebP(+ThumbHash) job ≤ 1.30× the GIF+PNG job (both including the one decode)');
  table(
    [
      'input',
      'frames',
      'floor wall',
      'decode',
      'gif enc',
      'png enc',
      'webp enc',
      'thumbhash',
      'webp/floor',
      'gif+png job',
      'gif+png+webp job',
      'gif+png+webp / gif+png',
    ],
    rows,
  );
  log('');
  log('target: webp/gif bytes ≤ 0.40× at comparable quality; quality against the decoded frames, gif / webp');
  table(['input', 'gif', 'webp', 'webp/gif bytes', 'PSNR RGB dB', 'PSNR luma dB', 'SSIM luma'], qualityRows);
}

/** MP4 (H.264) against the GIF of the same decoded frames: bytes, encode time, quality; what it would add to a gif job. */
async function mp4Section(inputs: Array<Input & { duration: number }>): Promise<void> {
  const measures = await measureMp4(inputs, runs);
  const wallCpu = (t: { wallMs: number; cpuMs: number }): string => `${fmtMs(t.wallMs)} / ${fmtMs(t.cpuMs)}`;
  const q = (x: { psnrLuma: number; ssimLuma: number }): string =>
    `${x.psnrLuma.toFixed(1)} dB, ${x.ssimLuma.toFixed(4)}`;
  log('');
  log(
    `MP4 (libx264 crf ${MP4_CRF}, preset ${MP4_PRESET}, yuv420p, +faststart) vs the GIF of the same decoded frames, in this process; encode time median of ${runs}, wall / CPU (this process and its ffmpeg)`,
  );
  log(
    "target: mp4/gif bytes ≤ 0.30× on the videos at a quality (luma PSNR, SSIM against the decoded frames) no worse than the GIF's",
  );
  table(
    [
      'input',
      'w×h×frames',
      'gif',
      'mp4',
      'mp4/gif bytes',
      'gif encode',
      'mp4 encode',
      'gif luma PSNR, SSIM',
      'mp4 luma PSNR, SSIM',
      'PSNR RGB gif / mp4',
    ],
    measures.map((m) => [
      m.name,
      `${m.width}×${m.height}×${m.frames}`,
      fmtBytes(m.gifBytes),
      fmtBytes(m.chosen.bytes),
      ratio(m.chosen.bytes, m.gifBytes),
      wallCpu(m.gifEncode),
      wallCpu(m.chosen.encode),
      q(m.gifQuality),
      q(m.chosen.quality),
      `${m.gifQuality.psnrRgb.toFixed(1)} / ${m.chosen.quality.psnrRgb.toFixed(1)}`,
    ]),
  );
  log('');
  log('x264 settings around the chosen ones (one encode each): mp4/gif bytes, encode wall / CPU, luma PSNR, SSIM');
  table(
    ['input', ...measures[0]!.variants.map((v) => `crf ${v.crf} ${v.preset}`)],
    measures.map((m) => [
      m.name,
      ...m.variants.map((v) => `${ratio(v.bytes, m.gifBytes)} ${wallCpu(v.encode)} ${q(v.quality)}`),
    ]),
  );
  log('');
  log(
    `a gif job's decode + encodes (GIF streamed during a video's decode, PNG, WebP, ThumbHash at once) without and with the MP4 beside them, and an mp4 job's (PNG, MP4, ThumbHash); median of ${runs}, wall / CPU`,
  );
  log(
    'a gif job writes the MP4 too only if that is cheap: the MP4 is then paid on every gif job, a separate mp4 job only when someone asks for it',
  );
  table(
    ['input', 'gif job', 'gif job + mp4', 'wall ratio', 'CPU ratio', 'mp4 job', 'mp4 job / gif job CPU'],
    measures.map((m) => [
      m.name,
      `${fmtMs(m.gifJobMs)} / ${fmtMs(m.gifJobCpuMs)}`,
      `${fmtMs(m.gifJobWithMp4Ms)} / ${fmtMs(m.gifJobWithMp4CpuMs)}`,
      ratio(m.gifJobWithMp4Ms, m.gifJobMs),
      ratio(m.gifJobWithMp4CpuMs, m.gifJobCpuMs),
      `${fmtMs(m.mp4JobMs)} / ${fmtMs(m.mp4JobCpuMs)}`,
      ratio(m.mp4JobCpuMs, m.gifJobCpuMs),
    ]),
  );
}

/** Our GIF (palette indices from ffmpeg, written by gif-encoder-2) against ffmpeg's own GIF of the same decoded frames. */
async function gifSection(inputs: Array<Input & { duration: number }>): Promise<void> {
  const measures = await measureGif(inputs, runs);
  const wallCpu = (t: { wallMs: number; cpuMs: number }): string => `${fmtMs(t.wallMs)} / ${fmtMs(t.cpuMs)}`;
  log('');
  log(
    `GIF: ours (ffmpeg palettegen/paletteuse to palette indices, gif-encoder-2 writes the GIF) vs ffmpeg's own GIF of the same decoded frames (same filter), in this process; median of ${runs}, wall / CPU (this process and its ffmpeg)`,
  );
  log("targets: bytes ≤ 1.10× ffmpeg's; the same pixels (so the same PSNR and SSIM against the decoded frames)");
  table(
    [
      'input',
      'frames',
      'ours',
      'ffmpeg',
      'ours/ffmpeg bytes',
      'pixels differing',
      'PSNR RGB dB ours / ffmpeg',
      'SSIM luma ours / ffmpeg',
    ],
    measures.map((m) => [
      m.name,
      String(m.frames),
      fmtBytes(m.oursBytes),
      fmtBytes(m.ffmpegBytes),
      ratio(m.oursBytes, m.ffmpegBytes),
      `${m.differingPixels} of ${m.pixels}`,
      `${m.oursQuality.psnrRgb.toFixed(2)} / ${m.ffmpegQuality.psnrRgb.toFixed(2)}`,
      `${m.oursQuality.ssimLuma.toFixed(4)} / ${m.ffmpegQuality.ssimLuma.toFixed(4)}`,
    ]),
  );
  log('');
  log(
    "the GIF step's time, wall / CPU; ours = palette mapping (ffmpeg, pal8 out) + writing (gif-encoder-2, JS), each also measured alone",
  );
  table(
    ['input', 'ours', 'ffmpeg GIF', 'ours/ffmpeg wall', 'ours/ffmpeg CPU', 'mapping alone', 'writing alone'],
    measures.map((m) => [
      m.name,
      wallCpu(m.ours),
      wallCpu(m.ffmpeg),
      ratio(m.ours.wallMs, m.ffmpeg.wallMs),
      ratio(m.ours.cpuMs, m.ffmpeg.cpuMs),
      wallCpu(m.mapping),
      wallCpu(m.writing),
    ]),
  );
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-bench-'));
  const board = await startFakeBoard();
  const redis = new Redis(base.redis.url, { maxRetriesPerRequest: null });
  const queue: BenchQueue = new Queue(THUMBNAIL_QUEUE, { connection: redis, prefix: thumbnailQueuePrefix(prefix) });
  const baselineQueue: BenchQueue = new Queue(THUMBNAIL_QUEUE, {
    connection: redis,
    prefix: thumbnailQueuePrefix(baselinePrefix),
  });
  let nextId = 1;
  try {
    log('== thumbs-worker: GIF, PNG, WebP and MP4 rendering against the ffmpeg decode floor');
    log(
      `machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    log('generating inputs…');
    // The in-process comparisons alone read 3 s of each: shorter inputs keep them to a minute or two.
    const [long, short] = sections.has('jobs') || sections.has('throughput') ? [30, 10] : [5, 4];
    const specs: Array<{ name: string; ext: string; duration: number; make: () => Promise<Buffer> }> = [
      {
        name: `webm 1280×720 ${long} s`,
        ext: 'webm',
        duration: long,
        make: () => makeWebm(long, 1280, 720, { fps: 30, bitrate: '2M' }),
      },
      {
        name: `mp4 1280×720 ${long} s`,
        ext: 'mp4',
        duration: long,
        make: () => makeMp4(long, 1280, 720, { fps: 30, bitrate: '2M' }),
      },
      {
        name: `webm 1920×1080 ${short} s`,
        ext: 'webm',
        duration: short,
        make: () => makeWebm(short, 1920, 1080, { fps: 30, bitrate: '4M' }),
      },
      { name: 'gif 480×270 90 frames', ext: 'gif', duration: 9, make: () => makeAnimatedGif(90, 480, 270) },
    ];
    const inputs: Array<Input & { duration: number }> = [];
    for (const spec of specs) {
      const bytes = await spec.make();
      const post = board.addPost({ id: nextId++, ext: spec.ext }, bytes);
      const file = path.join(workDir, `${post.md5}.${spec.ext}`);
      await writeFile(file, bytes);
      inputs.push({
        name: spec.name,
        ext: spec.ext,
        file,
        md5: post.md5,
        bytes: bytes.length,
        duration: spec.duration,
      });
    }

    /**
     * The same media under another md5 (a job per md5): videos remuxed with a tag, a GIF with a
     * comment extension before its trailer (libvips refuses bytes after the trailer).
     */
    const copyOf = async (input: Input & { duration: number }, run: number): Promise<Input & { duration: number }> => {
      const file = path.join(workDir, `run${run}-${path.basename(input.file)}`);
      const tag = `pawlink-bench-${runId}-${run}`;
      if (input.ext === 'gif') await writeFile(file, withGifComment(await readFile(input.file), tag));
      else
        await measureCommand('ffmpeg', [
          '-hide_banner',
          '-loglevel',
          'error',
          '-nostdin',
          '-i',
          input.file,
          '-map',
          '0',
          '-c',
          'copy',
          '-metadata',
          `comment=${tag}`,
          '-y',
          file,
        ]);
      const bytes = await readFile(file);
      const post = board.addPost({ id: nextId++, ext: input.ext }, bytes);
      return { ...input, file, md5: post.md5, bytes: bytes.length };
    };

    if (sections.has('gif')) await gifSection(inputs);
    if (sections.has('webp')) await webpSection(inputs);
    if (sections.has('mp4')) await mp4Section(inputs);
    if (!sections.has('jobs') && !sections.has('throughput')) return;

    // One fresh worker process per input, warmed up with a tiny job, so its peak RSS and CPU
    // belong to that input alone.
    const rows: string[][] = [];
    const refRows: string[][] = [];
    const baselineRows: string[][] = [];
    for (const input of sections.has('jobs') ? inputs : []) {
      const mediaDir = path.join(workDir, `media-${input.md5}`);
      const worker = startWorker(mediaDir, board);
      const baseline = baselineMain
        ? startWorker(
            path.join(workDir, `baseline-${input.md5}`),
            board,
            { REDIS_PREFIX: baselinePrefix },
            baselineMain,
          )
        : undefined;
      try {
        await waitForReady(queue, 1);
        const warm = board.addPost({ id: nextId++, ext: 'png' }, await makePng(64, 64));
        await runJob(queue, warm.md5);
        if (baseline) {
          await waitForReady(baselineQueue, 1);
          await runJob(baselineQueue, warm.md5);
        }
        const baselineWall: number[] = [];
        const baselineCpu: number[] = [];
        /** The same job on the baseline worker: wall and CPU (the worker and its ffmpeg). */
        const onBaseline = async (md5: string): Promise<void> => {
          await new Promise((resolve) => setTimeout(resolve, 600));
          const cpuBefore = await cpuMs(baseline!.pid!);
          baselineWall.push((await runJob(baselineQueue, md5)).wallMs);
          baselineCpu.push((await cpuMs(baseline!.pid!)) - cpuBefore);
        };
        const jobWall: number[] = [];
        const jobCpu: number[] = [];
        const floorWall: number[] = [];
        const floorCpu: number[] = [];
        const peaks = { self: 0, child: 0, combined: 0 };
        let last: (ThumbnailJobResult & { md5: string }) | undefined;
        for (let run = 0; run < runs; run++) {
          const copy = run === 0 ? input : await copyOf(input, run);
          // turn about: the baseline goes first on every other run
          if (baseline && run % 2 === 1) await onBaseline(copy.md5);
          // let the board limiter's next slot come, so the measured job does not wait for it
          await new Promise((resolve) => setTimeout(resolve, 600));
          const memory = sampleMemory(worker.pid!);
          const cpuBefore = await cpuMs(worker.pid!);
          // a failed job stops the sampler too, or its timer keeps the benchmark running
          const result = await runJob(queue, copy.md5).finally(() => memory.stop());
          jobCpu.push((await cpuMs(worker.pid!)) - cpuBefore);
          jobWall.push(result.wallMs);
          const mem = await memory.stop();
          peaks.self = Math.max(peaks.self, mem.selfPeakMb);
          peaks.child = Math.max(peaks.child, mem.childPeakMb);
          peaks.combined = Math.max(peaks.combined, mem.combinedPeakMb);
          if (baseline && run % 2 === 0) await onBaseline(copy.md5);
          const floor = await ffmpegFloor(copy);
          floorWall.push(floor.wallMs);
          floorCpu.push(floor.cpuMs);
          last = { ...result, md5: copy.md5 };
        }
        const png = await readFile(path.join(mediaDir, 'thumbs', `${last!.md5}.png`));
        const reference = await ffmpegReferenceGif(input, input.duration, workDir);
        const [wall, cpu, floor, floorC] = [median(jobWall), median(jobCpu), median(floorWall), median(floorCpu)];
        rows.push([
          input.name,
          fmtBytes(input.bytes),
          fmtMs(wall),
          fmtMs(cpu),
          fmtMs(floor),
          fmtMs(floorC),
          ratio(wall, floor),
          jobWall.map((w, i) => ratio(w, floorWall[i]!)).join(' '),
          ratio(cpu, floorC),
          `${last!.width}×${last!.height}×${last!.frames}`,
          fmtBytes(last!.bytes),
          fmtBytes(png.length),
          peaks.self.toFixed(0),
          peaks.child.toFixed(0),
          peaks.combined.toFixed(0),
        ]);
        refRows.push([
          input.name,
          fmtMs(reference.wallMs),
          fmtMs(reference.cpuMs),
          fmtBytes(reference.outBytes ?? 0),
          ratio(reference.wallMs, floor),
          ratio(wall, reference.wallMs),
          fmtBytes(last!.bytes),
          ratio(last!.bytes, reference.outBytes ?? 0),
        ]);
        if (baseline) {
          baselineRows.push([
            input.name,
            fmtMs(wall),
            fmtMs(median(baselineWall)),
            ratio(wall, median(baselineWall)),
            jobWall.map((w, i) => ratio(w, baselineWall[i]!)).join(' '),
            fmtMs(cpu),
            fmtMs(median(baselineCpu)),
            ratio(cpu, median(baselineCpu)),
            jobCpu.map((c, i) => ratio(c, baselineCpu[i]!)).join(' '),
          ]);
        }
      } finally {
        await stopWorker(worker);
        if (baseline) await stopWorker(baseline);
      }
    }
    if (sections.has('jobs')) {
      log('');
      log(
        `GIF job (writes the PNG, the WebP and the GIF from one decode) vs the whole-file decode floor \`ffmpeg -i <file> -f null -\`; median of ${runs} runs, each on its own copy, its floor measured right after it`,
      );
      log('targets: 1080p webm wall/floor ≤ 1.20×, 720p ≤ 1.00×');
      table(
        [
          'input',
          'input size',
          'job wall',
          'job CPU',
          'floor wall',
          'floor CPU',
          'wall/floor',
          'wall/floor per run',
          'CPU/floor',
          'gif w×h×frames',
          'gif',
          'png',
          'worker peak RSS MB',
          'ffmpeg peak RSS MB',
          'worker+ffmpeg peak MB',
        ],
        rows,
      );
      log('');
      log(
        'Reference: ffmpeg alone making the GIF (same 3 s window, fps=10, 320 box, palettegen/paletteuse); target: our GIF ≤ 1.25× its bytes',
      );
      table(
        [
          'input',
          'ffmpeg GIF wall',
          'ffmpeg GIF CPU',
          'ffmpeg GIF size',
          'ref wall/floor',
          'ours/ref wall',
          'our GIF size',
          'ours/ref size',
        ],
        refRows,
      );
      if (baselineMain) {
        log('');
        log(
          `This build's GIF job vs the baseline's (BENCH_THUMBS_BASELINE=${baselineMain}), turn about on the same copies; medians of ${runs}, CPU of the worker and its ffmpeg`,
        );
        table(
          [
            'input',
            'job wall',
            'baseline wall',
            'wall ratio',
            'wall ratio per run',
            'job CPU',
            'baseline CPU',
            'CPU ratio',
            'CPU ratio per run',
          ],
          baselineRows,
        );
      }
    }
    if (!sections.has('throughput')) return;

    // Throughput: 20 distinct 720p webm files (remuxed copies, so each has its own md5).
    const batch: string[] = [];
    for (let i = 0; i < 20; i++) {
      const out = path.join(workDir, `batch-${i}.webm`);
      await measureCommand('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-i',
        inputs[0]!.file,
        '-c',
        'copy',
        '-metadata',
        `comment=batch-${runId}-${i}`,
        '-y',
        out,
      ]);
      batch.push(out);
    }
    const throughputRows: string[][] = [];
    for (const workers of [1, 2]) {
      const md5s: string[] = [];
      for (const file of batch) {
        const post = board.addPost({ id: nextId++, ext: 'webm' }, await readFile(file));
        md5s.push(post.md5);
      }
      const mediaDir = path.join(workDir, `media-batch-${workers}`);
      const procs = Array.from({ length: workers }, () => startWorker(mediaDir, board));
      try {
        await waitForReady(queue, workers);
        const started = Date.now();
        const results = await Promise.all(md5s.map((md5) => runJob(queue, md5)));
        const elapsed = Date.now() - started;
        const mean = results.reduce((sum, r) => sum + r.wallMs, 0) / results.length;
        throughputRows.push([
          String(workers),
          String(results.length),
          fmtMs(elapsed),
          (results.length / (elapsed / 60_000)).toFixed(1),
          fmtMs(mean),
        ]);
      } finally {
        await Promise.all(procs.map(stopWorker));
      }
      // the second round needs new md5s: remux again with another tag
      for (let i = 0; i < batch.length; i++) {
        await measureCommand('ffmpeg', [
          '-hide_banner',
          '-loglevel',
          'error',
          '-nostdin',
          '-i',
          inputs[0]!.file,
          '-c',
          'copy',
          '-metadata',
          `comment=batch-${runId}-${workers}-${i}`,
          '-y',
          batch[i]!,
        ]);
      }
    }
    log('');
    log(
      'Throughput: 20 jobs of the 720p webm (distinct files), one worker process per WORKER, concurrency 1; the board allows 2 lookups/s',
    );
    table(['workers', 'jobs', 'batch wall', 'jobs/minute', 'mean job wall'], throughputRows);
    log('');
    log(
      `ratios of 2 workers to 1: ${ratio(Number(throughputRows[1]?.[3]), Number(throughputRows[0]?.[3]))} jobs/minute`,
    );
  } finally {
    await queue.close();
    await baselineQueue.close();
    await deleteKeys(redis);
    redis.disconnect();
    await board.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(`thumbs benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
