import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, REPO_ROOT } from '@pawlink/test-kit';
import mysql from 'mysql2/promise';
import { GaleraNode, makeReachable, type NodePorts } from './galera-node.js';
import { spawnOwned, stopOwned } from '@pawlink/test-kit';

const HAPROXY = '/usr/sbin/haproxy';
const HAPROXY_CONFIG = path.join(REPO_ROOT, 'infra/galera/haproxy.cfg');
const HEALTH_AGENT = path.join(REPO_ROOT, 'infra/galera/health-agent.mjs');

/** Answers `SELECT @@wsrep_node_name` through `port` within a second (a fresh connection), or undefined. */
export async function nodeBehind(port: number): Promise<string | undefined> {
  let connection: mysql.Connection | undefined;
  const attempt = (async () => {
    connection = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', connectTimeout: 1000 });
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT @@wsrep_node_name AS name');
    return String(rows[0]!.name);
  })().catch(() => undefined);
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000).unref());
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    void attempt.then(() => connection?.destroy());
  }
}

/**
 * Three private Galera nodes, a health agent beside each (infra/galera/health-agent.mjs) and
 * HAProxy with the shipped infra/galera/haproxy.cfg, all on free ports with their files under one
 * temp directory. `stop()` stops exactly these processes (by pid) and removes the directory.
 */
export class GaleraCluster {
  readonly nodes: GaleraNode[] = [];
  private readonly agents = new Map<string, ChildProcess>();
  private haproxy: ChildProcess | undefined;
  writerPort = 0;
  readerPort = 0;
  statsPort = 0;

  private constructor(readonly dir: string) {}

  static async start(): Promise<GaleraCluster> {
    const cluster = new GaleraCluster(await mkdtemp(path.join(os.tmpdir(), 'pawlink-galera-')));
    try {
      await cluster.startAll();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  private async startAll(): Promise<void> {
    await makeReachable(this.dir);
    const ports: NodePorts[] = [];
    for (let i = 0; i < 3; i++) {
      ports.push({
        sql: await freePort(),
        gcomm: await freePort(),
        ist: await freePort(),
        sst: await freePort(),
        check: await freePort(),
      });
    }
    const address = ports.map((p) => `127.0.0.1:${p.gcomm}`).join(',');
    for (let i = 0; i < 3; i++) this.nodes.push(new GaleraNode(`galera${i + 1}`, this.dir, ports[i]!, address));
    await Promise.all(this.nodes.map((node, i) => node.prepare(i === 0)));
    await this.nodes[0]!.start({ newCluster: true });
    // One joiner at a time: each copies the first node's data directory by rsync (SST).
    await this.nodes[1]!.start();
    await this.nodes[2]!.start();
    for (const node of this.nodes) this.startAgent(node);
    [this.writerPort, this.readerPort, this.statsPort] = [await freePort(), await freePort(), await freePort()];
    this.startHaproxy();
    const deadline = Date.now() + 30_000;
    while ((await nodeBehind(this.writerPort)) === undefined) {
      if (Date.now() > deadline) throw new Error(`HAProxy's writer port answers no query:\n${await this.haproxyLog()}`);
      await sleep(200);
    }
  }

  /** True when `node` commits a row within a second (a fresh connection straight to it, not through HAProxy). */
  async commitsOn(node: GaleraNode): Promise<boolean> {
    let connection: mysql.Connection | undefined;
    const attempt = (async () => {
      connection = await node.connect();
      await connection.query('CREATE DATABASE IF NOT EXISTS galera_probe');
      await connection.query('CREATE TABLE IF NOT EXISTS galera_probe.commits (id INT AUTO_INCREMENT PRIMARY KEY)');
      await connection.query('INSERT INTO galera_probe.commits () VALUES ()');
      return true;
    })().catch(() => false);
    const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 1000).unref());
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      void attempt.then(() => connection?.destroy());
    }
  }

  /** Milliseconds from `since` until `check` first holds (polled every 100 ms), or undefined after `boundMs`. */
  static async firstTime(since: number, boundMs: number, check: () => Promise<boolean>): Promise<number | undefined> {
    while (Date.now() - since <= boundMs) {
      if (await check()) return Date.now() - since;
      await sleep(100);
    }
    return undefined;
  }

  private startAgent(node: GaleraNode): void {
    const peers = this.nodes.filter((peer) => peer !== node).map((peer) => `127.0.0.1:${peer.ports.sql}`);
    const child = spawnOwned(process.execPath, [HEALTH_AGENT], path.join(this.dir, `${node.name}-agent.log`), {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HEALTH_HOST: '127.0.0.1',
        HEALTH_PORT: String(node.ports.check),
        NODE_ADDRESS: `127.0.0.1:${node.ports.sql}`,
        PEER_ADDRESSES: peers.join(','),
      },
    });
    this.agents.set(node.name, child);
  }

  private startHaproxy(): void {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      WRITER_BIND: `127.0.0.1:${this.writerPort}`,
      READER_BIND: `127.0.0.1:${this.readerPort}`,
      STATS_BIND: `127.0.0.1:${this.statsPort}`,
    };
    this.nodes.forEach((node, i) => {
      env[`GALERA${i + 1}_HOST`] = '127.0.0.1';
      env[`GALERA${i + 1}_PORT`] = String(node.ports.sql);
      env[`GALERA${i + 1}_CHECK_PORT`] = String(node.ports.check);
    });
    // -db: in the foreground, so the pid the suite holds is HAProxy's own.
    this.haproxy = spawnOwned(HAPROXY, ['-db', '-f', HAPROXY_CONFIG], path.join(this.dir, 'haproxy.log'), { env });
  }

  haproxyPid(): number | undefined {
    return this.haproxy?.pid;
  }

  haproxyLog(): Promise<string> {
    return readFile(path.join(this.dir, 'haproxy.log'), 'utf8').catch(() => '');
  }

  agentLog(node: GaleraNode): Promise<string> {
    return readFile(path.join(this.dir, `${node.name}-agent.log`), 'utf8').catch(() => '');
  }

  node(name: string): GaleraNode {
    const found = this.nodes.find((node) => node.name === name);
    if (!found) throw new Error(`no node ${name}`);
    return found;
  }

  /** The node HAProxy's writer port sends a new connection to now. */
  async writer(): Promise<GaleraNode | undefined> {
    const name = await nodeBehind(this.writerPort);
    return name === undefined ? undefined : this.node(name);
  }

  /** Stops HAProxy, the agents and the nodes (by the pids the suite started), then removes the directory. */
  async stop(): Promise<void> {
    await stopOwned(this.haproxy, 5000);
    await Promise.all([...this.agents.values()].map((agent) => stopOwned(agent, 5000)));
    await Promise.all(this.nodes.map((node) => node.stop()));
    await rm(this.dir, { recursive: true, force: true });
  }
}
