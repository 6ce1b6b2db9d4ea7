/**
 * Benchmark of `bin/admin links import --from csv` (issue 39), not a test: writes a CSV of
 * BENCH_ROWS rows (default 1,000,000; one in a thousand with a target the API refuses), imports it
 * into private databases (`lbench_<hex>_*`, dropped afterwards) through the real bin/admin, and
 * prints rows per second and the import process's peak RSS (GNU time's maximum resident set size).
 *
 *   node tools/admin/dist/bench/links-import.js        (after `pnpm -s --filter @pawlink/admin build`)
 */
import { ApiKeyRepository, authDatabase } from '@pawlink/auth';
import { createDataSource, loadBaseConfig } from '@pawlink/service-kit';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';

const ADMIN = fileURLToPath(new URL('../../../../bin/admin', import.meta.url));
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${path.basename(file)} ${args[0]}: ${stderr || error.message}`))
        : resolve({ stdout, stderr }),
    );
  });
}

/** The CSV, streamed to disk with backpressure. */
async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const created = Date.UTC(2020, 0, 1);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('\uFEFFurl,code,credit,createdAt,tags,expiresAt,maxVisits,visits\n');
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const url = i % 1000 === 999 ? `http://10.0.0.${i % 250}/bench/${i}` : `https://example.com/bench/${i}?q=${i}`;
    chunk += `${url},b-${i.toString(36)},"Bench, row ${i}",${new Date(created + i * 1000).toISOString()},bench|t${i % 10},,,${i % 100}\n`;
    if (chunk.length > 1 << 16) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
}

const load = (): string =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const prefix = `lbench_${randomBytes(3).toString('hex')}_`;
  const env: NodeJS.ProcessEnv = { ...process.env, DB_PREFIX: prefix, REDIS_PREFIX: `${prefix}:`, LOG_LEVEL: 'error' };
  const config = loadBaseConfig(env);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'links-import-bench-'));
  try {
    await run(ADMIN, ['migrate'], env);
    const auth = createDataSource(config.database, authDatabase);
    await auth.initialize();
    const owner = (await new ApiKeyRepository(auth).create({ name: 'bench', contact: 'bench@localhost', flags: [] }))
      .record.id;
    await auth.destroy();

    const csv = path.join(dir, 'links.csv');
    await writeCsv(csv, ROWS);
    const { size } = await stat(csv);
    const loadBefore = load();
    const started = process.hrtime.bigint();
    const { stdout, stderr } = await run(
      '/usr/bin/time',
      [
        '-f',
        'time %e %M',
        ADMIN,
        'links',
        'import',
        csv,
        '--from',
        'csv',
        '--owner',
        String(owner),
        '--report',
        path.join(dir, 'report.jsonl'),
      ],
      env,
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const peakKb = Number(/time [\d.]+ (\d+)/.exec(stderr)?.[1]);

    const { host, port, user, password } = config.database;
    const connection = await mysql.createConnection({ host, port, user, password, database: `${prefix}shortener` });
    const [[count]] = await connection.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM short_urls');
    await connection.end();

    process.stdout.write(
      [
        `rows: ${ROWS} (${(size / 1e6).toFixed(1)} MB of CSV), in the shortener afterwards: ${count?.n}`,
        `bin/admin: ${stdout.trim()}`,
        `time: ${seconds.toFixed(1)} s, ${(ROWS / seconds).toFixed(0)} rows/s (process start and migrations' check included)`,
        `peak RSS of the import process: ${(peakKb / 1024).toFixed(1)} MB`,
        `load average (1/5/15 min) before: ${loadBefore}, after: ${load()}; ${os.cpus().length} CPUs`,
      ].join('\n') + '\n',
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
    const connection = await mysql.createConnection({
      host: config.database.host,
      port: config.database.port,
      user: config.database.user,
      password: config.database.password,
    });
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SHOW DATABASES');
    for (const row of rows) {
      const name = String(Object.values(row)[0]);
      if (name.startsWith(prefix)) await connection.query(`DROP DATABASE \`${name}\``);
    }
    await connection.end();
  }
}

await main();
