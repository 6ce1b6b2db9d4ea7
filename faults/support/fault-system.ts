import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import {
  adminOrThrow,
  builtSystemEnv,
  freePort,
  migrateWithUnlimitedKey,
  SERVICE_NAMES,
  startService,
  startWorker,
  type NodeProcess,
  type ServiceName,
  type ServiceProcess,
} from '@pawlink/test-kit';
import { addSmallPosts, type ThumbnailJobKey } from './board-posts.js';
import { ProcessBook } from './process-book.js';
import { startPrivateMariaDb, type PrivateMariaDb } from './private-mariadb.js';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';

/** The images category the load asks for. */
export const CATEGORY = 'faults.load';

/** The database prefix inside the private MariaDB. */
export const DB_PREFIX = 'faults_';

export interface WorkerProcess {
  proc: NodeProcess;
  /** WORKER_HEALTH_PORT given to it: `/ready` there, when the worker serves it. */
  healthPort: number;
}

/** Waits for every promise, then throws the first failure (Promise.all would leave the others running unseen). */
async function settleAll(promises: Array<Promise<unknown>>): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The system under test, all of it the suite's own: a private Redis and MariaDB under one temp
 * directory, the fake board, the three services and two thumbnail workers (the built
 * `dist/main.js` of each). `shutdown()` stops exactly what was started and removes the directory,
 * also after a start that failed half-way.
 */
export class FaultSystem {
  readonly book = new ProcessBook();
  redis!: PrivateRedis;
  mariadb!: PrivateMariaDb;
  board!: FakeBoard;
  env: Record<string, string> = {};
  key = '';
  readonly ports = { shortener: 0, images: 0, thumbs: 0 };
  readonly services: Partial<Record<ServiceName, ServiceProcess>> = {};
  readonly workers: WorkerProcess[] = [];
  /** Thumbnail jobs for the load, spare ones for the recovery probes, and the one the worker is killed in. */
  loadJobs: ThumbnailJobKey[] = [];
  spareJobs: ThumbnailJobKey[] = [];
  killJob!: ThumbnailJobKey;
  private workerCount = 0;

  private constructor(readonly dir: string) {}

  static async create(): Promise<FaultSystem> {
    return new FaultSystem(await mkdtemp(path.join(os.tmpdir(), 'pawlink-faults-')));
  }

  url(service: ServiceName): string {
    return `http://127.0.0.1:${this.ports[service]}`;
  }

  service(name: ServiceName): ServiceProcess {
    const proc = this.services[name];
    if (!proc) throw new Error(`${name} is not running`);
    return proc;
  }

  async start(): Promise<void> {
    const mediaDir = path.join(this.dir, 'media');
    const workerTmp = path.join(this.dir, 'worker-tmp');
    await Promise.all([mkdir(mediaDir), mkdir(workerTmp)]);
    // Each is kept as soon as it is up, so shutdown() stops it even when another one failed.
    await settleAll([
      startPrivateRedis(this.dir).then((redis) => (this.redis = redis)),
      startPrivateMariaDb(this.dir).then((mariadb) => (this.mariadb = mariadb)),
      startFakeBoard().then((board) => (this.board = board)),
    ]);
    for (const name of SERVICE_NAMES) this.ports[name] = await freePort();
    // Nothing serves media here: the answers only name these URLs.
    const mediaBase = `http://127.0.0.1:${await freePort()}`;
    this.env = {
      ...builtSystemEnv({
        dbPort: this.mariadb.port,
        dbPrefix: DB_PREFIX,
        redisUrl: this.redis.url,
        redisPrefix: 'faults:',
        mediaDir,
        mediaBaseUrl: mediaBase,
        board: this.board,
        workerTmpDir: workerTmp,
        logLevel: 'info',
      }),
      SHORTENER_URL: this.url('shortener'),
      IMAGES_URL: this.url('images'),
      THUMBS_URL: this.url('thumbs'),
    };

    this.key = await migrateWithUnlimitedKey(this.env, 'faults');
    await this.seedImages();
    const jobs = await addSmallPosts(this.board, 400, 50_000);
    // A post of its own: a job for one type may write both files.
    this.killJob = jobs.shift()!;
    jobs.shift();
    this.spareJobs = jobs.splice(0, 200);
    this.loadJobs = jobs;

    await settleAll([
      ...SERVICE_NAMES.map(async (name) => {
        const proc = await startService(name, this.env, { port: this.ports[name] });
        this.services[name] = proc;
        this.book.add(name, proc);
      }),
      this.startWorker(),
      this.startWorker(),
    ]);
  }

  /** A few images in one category, through the CLI as an operator adds them. */
  private async seedImages(): Promise<void> {
    const incoming = path.join(this.dir, 'incoming');
    await mkdir(incoming);
    for (let i = 0; i < 4; i++) await writeFile(path.join(incoming, `image-${i}.png`), await makePng(160 + i * 8, 120));
    await adminOrThrow(this.env, ['category', 'add', CATEGORY, '--name', 'Faults > Load']);
    await adminOrThrow(this.env, ['images', 'import', '--category', CATEGORY, '--artist', 'fault suite', incoming]);
  }

  /** Starts one more thumbnail worker (with its own health port) and waits until it has taken the queue. */
  async startWorker(): Promise<WorkerProcess> {
    const healthPort = await freePort();
    const label = `worker-${++this.workerCount}`;
    const proc = startWorker(label, { ...this.env, WORKER_HEALTH_PORT: String(healthPort) });
    this.book.add('worker', proc);
    const worker = { proc, healthPort };
    this.workers.push(worker);
    const deadline = Date.now() + 30_000;
    while (!proc.lines.some((line) => line.includes('thumbs worker started'))) {
      if (proc.child.exitCode !== null || Date.now() > deadline)
        throw new Error(`${label} did not start:\n${proc.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return worker;
  }

  /** Starts `name` again on its port after the suite stopped it. */
  async restartService(name: ServiceName): Promise<ServiceProcess> {
    const proc = await startService(name, this.env, { port: this.ports[name], label: `${name}-restarted` });
    this.services[name] = proc;
    this.book.add(name, proc);
    return proc;
  }

  /** Stops every process, the board and both databases, then removes the temp directory. Safe to call twice. */
  async shutdown(): Promise<void> {
    await this.book.stopAll(10_000);
    await this.board?.close();
    await Promise.all([this.redis?.stop(), this.mariadb?.stop()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
