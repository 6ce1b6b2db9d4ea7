import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makePng, startFakeBoard, type FakeBoard } from '@pawlink/board/testing';
import {
  admin,
  adminOrThrow,
  builtSystemEnv,
  deleteRedisKeys,
  migrateWithUnlimitedKey,
  SERVICE_NAMES,
  startService,
  startWorker,
  type NodeProcess,
  type ServiceName,
  type ServiceProcess,
} from '@pawlink/test-kit';
import { GaleraCluster } from './galera-cluster.js';

/** The images category the load asks for. */
export const CATEGORY = 'galera.load';

/**
 * The built services, a thumbnail worker and the fake board on the private Galera cluster, through
 * HAProxy's writer port (DB_HOST/DB_PORT) and reader port (DB_READ_HOST/DB_READ_PORT); Redis is
 * the shared one, under a prefix of this run's own. `stop()` stops exactly what was started.
 */
export class GaleraSystem {
  cluster!: GaleraCluster;
  board!: FakeBoard;
  env: Record<string, string> = {};
  key = '';
  readonly services: Partial<Record<ServiceName, ServiceProcess>> = {};
  worker: NodeProcess | undefined;
  /** Board posts for the load's thumbnail jobs (one each). */
  posts: number[] = [];
  readonly dbPrefix = `galera_${randomBytes(3).toString('hex')}_`;
  readonly redisPrefix = `t:galera:${randomBytes(4).toString('hex')}:`;

  private constructor(readonly dir: string) {}

  static async start(): Promise<GaleraSystem> {
    const system = new GaleraSystem(await mkdtemp(path.join(os.tmpdir(), 'pawlink-galera-system-')));
    try {
      await system.startAll();
      return system;
    } catch (error) {
      await system.stop();
      throw error;
    }
  }

  service(name: ServiceName): ServiceProcess {
    const proc = this.services[name];
    if (!proc) throw new Error(`${name} is not running`);
    return proc;
  }

  private async startAll(): Promise<void> {
    const mediaDir = path.join(this.dir, 'media');
    const workerTmp = path.join(this.dir, 'worker-tmp');
    await Promise.all([mkdir(mediaDir), mkdir(workerTmp)]);
    [this.cluster, this.board] = await Promise.all([GaleraCluster.start(), startFakeBoard()]);
    this.env = {
      ...builtSystemEnv({
        dbPort: this.cluster.writerPort,
        dbPrefix: this.dbPrefix,
        redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        redisPrefix: this.redisPrefix,
        mediaDir,
        mediaBaseUrl: 'http://127.0.0.1:1',
        board: this.board,
        workerTmpDir: workerTmp,
        logLevel: 'warn',
      }),
      DB_READ_HOST: '127.0.0.1',
      DB_READ_PORT: String(this.cluster.readerPort),
      WORKER_CONCURRENCY: '2',
      // Visits move to MySQL every second (5 s by default), so batches are moved during each fault too.
      SHORTENER_VISITS_MOVE_MS: '1000',
    };
    this.key = await migrateWithUnlimitedKey(this.env, 'galera');
    await adminOrThrow(this.env, ['category', 'add', CATEGORY, '--name', 'Galera > Load']);
    await this.importImages('seed', 3);
    for (let i = 0; i < 60; i++) {
      const id = 91_000 + i;
      this.board.addPost({ id, ext: 'png' }, await makePng(48 + (i % 16), 32));
      this.posts.push(id);
    }
    for (const name of SERVICE_NAMES) this.services[name] = await startService(name, this.env);
    this.worker = startWorker('worker', this.env);
  }

  /** Imports `count` new images through bin/admin (what an operator does); resolves with the CLI's exit code. */
  async importImages(label: string, count: number): Promise<{ code: number | null; output: string }> {
    const incoming = path.join(this.dir, `incoming-${label}`);
    await mkdir(incoming);
    for (let i = 0; i < count; i++)
      await writeFile(path.join(incoming, `${label}-${i}.png`), await makePng(100 + i * 4, 80 + count));
    const result = await admin(this.env, ['images', 'import', '--category', CATEGORY, '--artist', 'Galera', incoming]);
    return { code: result.code, output: `${result.stdout}\n${result.stderr}` };
  }

  /** The pid of every started service and the worker, to see afterwards that none was restarted. */
  pids(): Record<string, number | undefined> {
    const pids: Record<string, number | undefined> = { worker: this.worker?.child.pid };
    for (const name of SERVICE_NAMES) pids[name] = this.services[name]?.child.pid;
    return pids;
  }

  /** True when every started process is still the one that was started. */
  allRunning(): boolean {
    return [...Object.values(this.services), this.worker].every(
      (proc) => proc !== undefined && proc.child.exitCode === null && proc.child.signalCode === null,
    );
  }

  logs(chars = 3000): string {
    return [...Object.values(this.services), this.worker]
      .filter((proc) => proc !== undefined)
      .map((proc) => `--- ${proc.name}\n${proc.tail(chars)}`)
      .join('\n');
  }

  async stop(): Promise<void> {
    const procs = [...Object.values(this.services), this.worker].filter((proc) => proc !== undefined);
    await Promise.all(procs.map((proc) => proc.stop(10_000)));
    await this.board?.close();
    await this.cluster?.stop();
    await deleteRedisKeys(this.redisPrefix, this.env.REDIS_URL).catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}
