import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT } from '@pawlink/test-kit';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GaleraCluster } from '../support/galera-cluster.js';
import { CATEGORY, GaleraSystem } from '../support/galera-system.js';
import type { GaleraNode } from '../support/galera-node.js';
import { CLIENT_TIMEOUT_MS, contractViolation, describeAnswer, MixedLoad } from '../support/mixed-load.js';
import { imageCountOnNode, linksOnNode, lostWrites, miscountedVisits, visitsOnNode } from '../support/read-back.js';

/*
 * The built services on a private 3-node Galera cluster behind HAProxy (infra/galera), under a
 * mixed load while the writer node is killed, the killed node rejoins, and a node is paused.
 */

let system: GaleraSystem;
let load: MixedLoad;
let pidsAtStart: Record<string, number | undefined>;
/** Images the seed import and the imports during faults added (each one's count once it exited 0). */
let importedImages = 3;
const WRITES_BACK_WITHIN_MS = 5000;

beforeAll(async () => {
  system = await GaleraSystem.start();
  pidsAtStart = system.pids();
  load = new MixedLoad({
    shortener: system.service('shortener').url,
    images: system.service('images').url,
    thumbs: system.service('thumbs').url,
    key: system.key,
    category: CATEGORY,
    posts: system.posts,
  });
});

afterAll(async () => {
  await load?.stop();
  await system?.stop();
});

/** What each probe create of writesBackAfter got, for the failure message. */
const probeLog: string[] = [];

/** Creates a link every 100 ms until one answers 201; the time that took, or undefined after `boundMs`. */
async function writesBackAfter(since: number, boundMs: number): Promise<number | undefined> {
  const url = `${system.service('shortener').url}/create`;
  probeLog.length = 0;
  while (Date.now() - since <= boundMs) {
    const sent = Date.now() - since;
    const answer = await fetch(url, {
      method: 'POST',
      headers: { authorization: system.key, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `https://example.com/galera/probe/${Date.now()}` }),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    }).catch((error: Error) => error.name);
    probeLog.push(
      `+${sent} ms: ${typeof answer === 'string' ? answer : answer.status} after ${Date.now() - since - sent} ms`,
    );
    if (typeof answer !== 'string' && answer.status === 201) return Date.now() - since;
    await sleep(100);
  }
  return undefined;
}

/** Every answer from `first` on kept the contract: success, or 503 1004 with Retry-After, within the client's bound (times shown from `since`). */
function expectContractKept(first: number, since: number): void {
  const broken = load.answers.slice(first).filter((answer) => contractViolation(answer) !== undefined);
  expect
    .soft(
      broken.map((answer) => `${describeAnswer(answer, since)}: ${contractViolation(answer)}`),
      system.logs(),
    )
    .toEqual([]);
}

/** Every acknowledged write is on every running node, read from each node directly; every visit answered 302 is counted once. */
async function expectNoWriteLost(nodes: GaleraNode[]): Promise<void> {
  expect(load.links.length).toBeGreaterThan(0);
  for (const node of nodes) {
    const stored = await linksOnNode(node, system.dbPrefix);
    expect.soft(lostWrites(load.links, stored), node.name).toEqual([]);
    expect.soft(await imageCountOnNode(node, system.dbPrefix), node.name).toBeGreaterThanOrEqual(importedImages);
  }
  expect(load.links.some((link) => link.visits > 0)).toBe(true);
  const visits = await settledVisits(nodes);
  nodes.forEach((node, i) => {
    expect.soft(miscountedVisits(load.links, visits[i]!), `${node.name}: visits`).toEqual([]);
  });
}

/** Visits stay in memory and Redis for a few seconds before the mover adds them to MySQL. */
const VISITS_SETTLE_BOUND_MS = 30_000;
/** Unchanged this long (three rounds of the mover, SHORTENER_VISITS_MOVE_MS = 1 s here), they have all moved. */
const VISITS_STILL_MS = 3000;

/** Each node's visit counts once they stopped changing and every node has the same (or after the bound). */
async function settledVisits(nodes: GaleraNode[]): Promise<Array<Map<string, number>>> {
  const deadline = Date.now() + VISITS_SETTLE_BOUND_MS;
  let last = '';
  let stillSince = Date.now();
  for (;;) {
    const visits = await Promise.all(nodes.map((node) => visitsOnNode(node, system.dbPrefix)));
    const totals = visits.map((byCode) => [...byCode.values()].reduce((sum, n) => sum + n, 0));
    const now = JSON.stringify(totals);
    if (now !== last) [last, stillSince] = [now, Date.now()];
    const same = totals.every((total) => total === totals[0]);
    if ((same && Date.now() - stillSince >= VISITS_STILL_MS) || Date.now() > deadline) return visits;
    await sleep(500);
  }
}

function expectNoRestart(): void {
  expect.soft(system.pids()).toEqual(pidsAtStart);
  expect.soft(system.allRunning(), system.logs()).toBe(true);
}

/** Waits (bounded) until `node` takes traffic again: Synced in the cluster's current view, per its health agent. */
async function waitUntilFit(node: GaleraNode, boundMs: number): Promise<void> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const answer = await fetch(`http://127.0.0.1:${node.ports.check}/reader`).catch(() => undefined);
    if (answer?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${node.name} not fit again:\n${await system.cluster.agentLog(node)}`);
    await sleep(200);
  }
}

let killed: GaleraNode;

/**
 * The services' own HTTP contract suites (each starts its service in-process on databases of its
 * own, migrated through HAProxy as Galera runs DDL: total order isolation), pointed at the cluster.
 */
const CONTRACT_SUITES = [
  'apps/shortener/test/create-short-url.test.ts',
  'apps/shortener/test/update-short-url.test.ts',
  'apps/shortener/test/delete-short-url.test.ts',
  'apps/shortener/test/redirect.test.ts',
  'apps/images/test/random.test.ts',
  'apps/thumbs/test/create-thumbnail.test.ts',
];
/** The child run is ended (by its pid) if it takes longer, so it never overlaps what follows. */
const CONTRACT_SUITES_TIMEOUT_MS = 220_000;

/** Runs vitest on `files` with the database at the cluster; its exit code and output. */
function runSuites(files: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    path.join(REPO_ROOT, 'node_modules/.bin/vitest'),
    [
      'run',
      '--reporter=dot',
      ...['shortener', 'images', 'thumbs'].flatMap((app) => ['--project', `@pawlink/${app}`]),
      ...files,
    ],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NO_COLOR: '1',
        DB_HOST: '127.0.0.1',
        DB_PORT: String(system.cluster.writerPort),
        DB_READ_HOST: '127.0.0.1',
        DB_READ_PORT: String(system.cluster.readerPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CONTRACT_SUITES_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('the services on a Galera cluster behind HAProxy', () => {
  it("passes the services' contract suites through HAProxy", { timeout: 240_000 }, async () => {
    const started = Date.now();
    // Before the faults, on a healthy cluster; the run is ended if it overruns, so it never overlaps them.
    const { code, output } = await runSuites(CONTRACT_SUITES);
    const summary = /Tests\s+(.*)/.exec(output)?.[1] ?? '';
    console.log(
      `[galera] contract suites on the cluster: ${summary} in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    expect(code, output.slice(-6000)).toBe(0);
  });

  it('migrates to InnoDB tables that all have a primary key (what Galera replicates)', async () => {
    const connection = await system.cluster.nodes[0]!.connect();
    try {
      const [rows] = await connection.query<mysql.RowDataPacket[]>(
        `SELECT CONCAT(t.table_schema, '.', t.table_name) AS name, t.engine AS engine,
           (SELECT COUNT(*) FROM information_schema.table_constraints c
             WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name
               AND c.constraint_type = 'PRIMARY KEY') AS pk
         FROM information_schema.tables t WHERE t.table_schema LIKE ? AND t.table_type = 'BASE TABLE'`,
        [`${system.dbPrefix}%`],
      );
      expect(rows.length).toBeGreaterThan(5);
      expect(rows.filter((row) => row.engine !== 'InnoDB' || Number(row.pk) !== 1).map((row) => row.name)).toEqual([]);
    } finally {
      await connection.end();
    }
  });

  it('keeps every acknowledged write when the writer node is killed under load, answers within 1 s, writes again within 5 s', async () => {
    const first = load.answers.length;
    let window: { moved?: number; commits?: number; back?: number; survivor: GaleraNode; probes: string };
    let importing: Promise<{ code: number | null; output: string }>;
    const loadStartedAt = Date.now();
    load.start();
    try {
      await sleep(3000);
      const writer = await system.cluster.writer();
      expect(writer).toBeDefined();
      killed = writer!;
      const killedAt = Date.now();
      await killed.kill9();
      importing = system.importImages('during-kill', 2);
      const survivor = system.cluster.nodes.find((node) => node !== killed)!;
      // What the window is made of: HAProxy's writer moving, Galera committing again, the services writing again.
      const [moved, commits, back] = await Promise.all([
        GaleraCluster.firstTime(
          killedAt,
          10_000,
          async () => ![undefined, killed].includes(await system.cluster.writer()),
        ),
        GaleraCluster.firstTime(killedAt, 10_000, () => system.cluster.commitsOn(survivor)),
        writesBackAfter(killedAt, WRITES_BACK_WITHIN_MS),
      ]);
      window = { moved, commits, back, survivor, probes: probeLog.join('\n') };
      await sleep(3000);
    } finally {
      await load.stop();
    }
    const imported = await importing;
    console.log(
      `[galera] writer ${killed.name} killed: HAProxy's writer moved after ${window.moved} ms, ` +
        `${window.survivor.name} committed again after ${window.commits} ms, the services wrote again after ${window.back} ms; ` +
        `${load.answers.length - first} answers, ${load.answers.slice(first).filter((a) => a.status === 503).length} of them 503 1004; ` +
        `${load.links.length} links acknowledged; import during the kill exited ${imported.code}`,
    );
    expect
      .soft(window.back, `writes not back within ${WRITES_BACK_WITHIN_MS} ms of the kill:\n${window.probes}`)
      .toBeDefined();
    expect.soft(await system.cluster.writer()).not.toBe(killed);
    expect.soft(imported.code, imported.output).toBe(0);
    if (imported.code === 0) importedImages += 2;
    await expectNoWriteLost(system.cluster.nodes.filter((node) => node !== killed));
    expectNoRestart();
    expectContractKept(first, loadStartedAt);
  });

  it('lets the killed node rejoin by IST (wsrep-recover + start position) and serve the others’ data', async () => {
    const logBefore = (await killed.logTail(1_000_000)).length;
    const position = await killed.recoverPosition();
    const startedAt = Date.now();
    await killed.start({ startPosition: position });
    console.log(`[galera] ${killed.name} rejoined at ${position} in ${Date.now() - startedAt} ms`);
    const log = (await killed.logTail(1_000_000)).slice(logBefore);
    expect(log).toMatch(/IST received/);
    await waitUntilFit(killed, 30_000);
    // It does not take the writes back (no failback).
    expect(await system.cluster.writer()).not.toBe(killed);
    await expectNoWriteLost([killed]);
  });

  it('keeps every acknowledged write when the writer node is paused for 10 s under load, and it comes back', async () => {
    const first = load.answers.length;
    let window: { moved?: number; commits?: number; back?: number; other: GaleraNode; probes: string } | undefined;
    let paused: GaleraNode | undefined;
    const loadStartedAt = Date.now();
    load.start();
    try {
      await sleep(2000);
      paused = await system.cluster.writer();
      expect(paused).toBeDefined();
      const pausedAt = Date.now();
      paused!.signal('SIGSTOP');
      try {
        const other = system.cluster.nodes.find((node) => node !== paused)!;
        const [moved, commits, back] = await Promise.all([
          GaleraCluster.firstTime(
            pausedAt,
            10_000,
            async () => ![undefined, paused].includes(await system.cluster.writer()),
          ),
          GaleraCluster.firstTime(pausedAt, 10_000, () => system.cluster.commitsOn(other)),
          writesBackAfter(pausedAt, WRITES_BACK_WITHIN_MS),
        ]);
        window = { moved, commits, back, other, probes: probeLog.join('\n') };
        await sleep(Math.max(0, pausedAt + 10_000 - Date.now()));
      } finally {
        paused!.signal('SIGCONT');
      }
      await waitUntilFit(paused!, 60_000);
      await sleep(2000);
    } finally {
      await load.stop();
    }
    console.log(
      `[galera] writer ${paused!.name} paused: HAProxy's writer moved after ${window?.moved} ms, ` +
        `${window?.other.name} committed again after ${window?.commits} ms, the services wrote again after ${window?.back} ms; ` +
        `${load.answers.length - first} answers, ${load.answers.slice(first).filter((a) => a.status === 503).length} of them 503 1004`,
    );
    expect
      .soft(window?.back, `writes not back within ${WRITES_BACK_WITHIN_MS} ms of the pause:\n${window?.probes}`)
      .toBeDefined();
    await expectNoWriteLost(system.cluster.nodes);
    expectNoRestart();
    expectContractKept(first, loadStartedAt);
  });
});
