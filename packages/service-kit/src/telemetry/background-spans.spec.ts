import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Background work starts no trace, with the real instrumentations: a fresh node starts tracing as
 * an entry point does (from the build), then runs a MySQL statement and a Redis command outside
 * any span (as the visit mover and a circuit probe do) and the same inside a request's span. Its
 * spans go to an OTLP/JSON receiver here: only the request's and its children may arrive.
 */
const KIT = fileURLToPath(new URL('../..', import.meta.url));
const PROBE = `
import { createRequire } from 'node:module';
const { startTelemetry } = await import('./dist/telemetry/index.js');
await startTelemetry('probe');
const require = createRequire(import.meta.url);
const mysql = require('mysql2');
const { default: Redis } = await import('ioredis');
const { trace } = await import('@opentelemetry/api');
const { telemetryHooks } = await import('./dist/telemetry/telemetry-hooks.js');
const db = mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
await redis.connect();
const statement = (sql) => new Promise((resolve, reject) => db.query(sql, (error) => (error ? reject(error) : resolve())));
await statement('SELECT 1 AS background');
await redis.ping();
await trace.getTracer('probe').startActiveSpan('request', async (span) => {
  await statement('SELECT 2 AS traced');
  await redis.echo('traced');
  span.end();
});
db.end();
redis.disconnect();
await telemetryHooks().shutdown();
process.exit(0);
`;

interface Span {
  name: string;
  traceId: string;
  parentSpanId?: string;
  attributes?: Array<{ key: string; value: { stringValue?: string } }>;
}

let bodies: string[] = [];
let endpoint = '';
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    if (req.url === '/v1/traces') bodies.push(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function runProbe(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE], {
      cwd: KIT,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`probe exited ${code}: ${stderr}`))));
  });
}

describe('tracing with the real mysql2 and ioredis', () => {
  it("records a statement and a command under a request's span, and nothing for those outside one", async () => {
    bodies = [];
    await runProbe();
    const spans = bodies.flatMap((body) =>
      (JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> }).resourceSpans.flatMap(
        (rs) => rs.scopeSpans.flatMap((ss) => ss.spans),
      ),
    );
    const request = spans.find((s) => s.name === 'request');
    expect(request, JSON.stringify(spans)).toBeDefined();
    const text = (s: Span) => (s.attributes ?? []).map((a) => `${a.key}=${a.value.stringValue ?? ''}`).join(' ');
    // Every span is the request's or in its trace: no statement or command started one of its own.
    expect(spans.filter((s) => s.traceId !== request!.traceId).map((s) => `${s.name} ${text(s)}`)).toEqual([]);
    expect(spans.some((s) => /traced/.test(text(s)) && /SELECT/.test(text(s)))).toBe(true);
    expect(spans.some((s) => s.name === 'echo')).toBe(true);
    expect(spans.some((s) => s.name === 'ping')).toBe(false);
  });
});
