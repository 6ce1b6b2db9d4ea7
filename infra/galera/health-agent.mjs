#!/usr/bin/env node
// The health checks HAProxy asks about one Galera node (docs/adr/0020). GET /reader answers 200
// when the node may take traffic, GET /writer when it also is the node every write should go to;
// 503 with the reason otherwise. The agent polls its node and the node's peers in the background
// and answers from the last samples, so a check costs HAProxy a few milliseconds and the database
// one small query per poll, and a node that stops answering (paused, swapping, killed) is reported
// down at its first failed poll.
//
// Fit for traffic: wsrep_local_state 4 (Synced), wsrep_cluster_status Primary, wsrep_ready ON,
// read_only OFF, and a wsrep_cluster_conf_id no older than any Primary peer's: a node resumed
// after a pause reports Synced and Primary in its old view for several seconds.
//
// The writer: of the fit nodes, the one fit the longest without a break (then the longest-running
// process, then the name), where a break is only what every agent sees alike (writer-choice.mjs),
// so they agree; a node that comes back after a crash or a pause has just become fit and does not
// take the writes back from the node that took them over (no failback, no second writer).
//
// Environment: HEALTH_PORT (9200), HEALTH_HOST (0.0.0.0), NODE_ADDRESS (127.0.0.1:3306),
// PEER_ADDRESSES (host:port,...), DB_USER (root), DB_PASSWORD (''), POLL_MS (250).
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { preferredWriter, trackedNode, trackFitness, unfitReason } from './writer-choice.mjs';

const POLL_MS = Number(process.env.POLL_MS ?? 250);
/** A query that has not answered by then counts as a node that does not answer. */
const QUERY_TIMEOUT_MS = 800;
const startedAt = Date.now();

const STATUS_SQL = `SELECT @@global.read_only AS readOnly,
  MAX(IF(VARIABLE_NAME = 'WSREP_LOCAL_STATE', VARIABLE_VALUE, NULL)) AS localState,
  MAX(IF(VARIABLE_NAME = 'WSREP_CLUSTER_STATUS', VARIABLE_VALUE, NULL)) AS clusterStatus,
  MAX(IF(VARIABLE_NAME = 'WSREP_READY', VARIABLE_VALUE, NULL)) AS ready,
  MAX(IF(VARIABLE_NAME = 'WSREP_CLUSTER_CONF_ID', VARIABLE_VALUE, NULL)) AS confId,
  MAX(IF(VARIABLE_NAME = 'UPTIME', VARIABLE_VALUE, NULL)) AS uptime
FROM information_schema.GLOBAL_STATUS
WHERE VARIABLE_NAME IN ('WSREP_LOCAL_STATE', 'WSREP_CLUSTER_STATUS', 'WSREP_READY', 'WSREP_CLUSTER_CONF_ID', 'UPTIME')`;

const parseAddress = (text) => {
  const [host, port] = text.trim().split(':');
  return { host, port: Number(port ?? 3306), ...trackedNode(text.trim()) };
};

const self = parseAddress(process.env.NODE_ADDRESS ?? '127.0.0.1:3306');
const peers = (process.env.PEER_ADDRESSES ?? '')
  .split(',')
  .filter((text) => text.trim() !== '')
  .map(parseAddress);
const nodes = [self, ...peers];

/** Keeps the latest sample of one node; a failed poll drops it (the node counts as not answering at once). */
async function pollForever(node) {
  let connection;
  for (;;) {
    const started = Date.now();
    try {
      connection ??= await mysql.createConnection({
        host: node.host,
        port: node.port,
        user: process.env.DB_USER ?? 'root',
        password: process.env.DB_PASSWORD ?? '',
        connectTimeout: QUERY_TIMEOUT_MS,
      });
      const [rows] = await connection.query({ sql: STATUS_SQL, timeout: QUERY_TIMEOUT_MS });
      const row = rows[0];
      node.uptime = Number(row.uptime);
      node.answeredAt = Date.now();
      node.sample = {
        at: node.answeredAt,
        readOnly: Number(row.readOnly) !== 0,
        localState: Number(row.localState),
        clusterStatus: String(row.clusterStatus),
        ready: String(row.ready),
        confId: Number(row.confId),
      };
    } catch (error) {
      node.sample = undefined;
      node.error = error.code ?? error.message;
      connection?.destroy();
      connection = undefined;
    }
    await sleep(Math.max(0, POLL_MS - (Date.now() - started)));
  }
}

function verdict(path) {
  const reason = unfitReason(self, nodes, Date.now());
  if (reason !== undefined) return { ok: false, text: reason.text };
  if (path === '/writer') {
    const writer = preferredWriter(nodes);
    if (writer !== self) return { ok: false, text: `fit, but the writer is ${writer?.name ?? 'undecided'}` };
    return { ok: true, text: 'writer' };
  }
  return { ok: true, text: 'synced' };
}

const lastVerdict = new Map();
const server = http.createServer((request, response) => {
  const path = request.url === '/writer' ? '/writer' : '/reader';
  const { ok, text } = verdict(path);
  if (lastVerdict.get(path) !== text) {
    process.stdout.write(`${new Date().toISOString()} ${self.name} ${path}: ${text}\n`);
    lastVerdict.set(path, text);
  }
  response.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain', connection: 'close' });
  response.end(`${self.name}: ${text}\n`);
});

for (const node of nodes) void pollForever(node);
setInterval(() => trackFitness(nodes, Date.now(), startedAt), POLL_MS);
server.listen(Number(process.env.HEALTH_PORT ?? 9200), process.env.HEALTH_HOST ?? '0.0.0.0');
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
