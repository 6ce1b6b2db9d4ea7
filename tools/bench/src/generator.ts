import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, nginxBinary } from '@pawlink/test-kit';
import { interleave, type LoadSettings } from './interleave.js';
import { startCeiling, startServer, type ServerProcess } from './processes.js';
import type { Workspace } from './workspace.js';
import { writeWrkScript } from './wrk-script.js';

/** What the load generator reaches on this machine, against references that do no work. */
export interface GeneratorLimit {
  /** Median req/s of wrk against the fastest reference (nginx when installed). */
  maxRequestsPerSecond: number;
  /** Which reference gave `maxRequestsPerSecond`. */
  reference: string;
  /** Median req/s against a node:http server answering a static reply: the most a node:http ceiling can do. */
  nodeStaticRequestsPerSecond: number;
}

/**
 * A ceiling at or above this share of the generator's maximum is capped by the generator, not by
 * itself, and its ratio says nothing about the server.
 */
export const GENERATOR_BOUND_SHARE = 0.9;

/** Set by scripts/bench.sh so one `pnpm bench` measures the generator once for every benchmark. */
export const GENERATOR_FILE_ENV = 'BENCH_GENERATOR_FILE';

/** Paths vary as in the real runs, so the generator spends the same Lua work per request. */
const REFERENCE_PATHS = 1000;

/** nginx with one worker answering `return 200` to everything: a reference written in C. */
async function startStaticNginx(workspace: Workspace): Promise<ServerProcess> {
  const dir = await workspace.dir('nginx');
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${dir}/${name};`)
    .join('\n');
  const conf = `${isRoot ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
${temp}
  server {
    listen 127.0.0.1:${port};
    location / { default_type text/plain; return 200 "ok"; }
  }
}
`;
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, conf);
  return startServer({
    name: 'nginx',
    command: { file: nginxBinary(), args: ['-c', file, '-p', dir, '-e', path.join(dir, 'error.log')] },
    env: process.env,
    url: `http://127.0.0.1:${port}`,
    readyPath: '/',
  });
}

/** Measures the generator: wrk against nginx `return 200` (when installed) and a static node:http reply, interleaved. */
export async function measureGenerator(settings: LoadSettings, workspace: Workspace): Promise<GeneratorLimit> {
  const script = await writeWrkScript(
    workspace.file('reference.lua'),
    Array.from({ length: REFERENCE_PATHS }, (_, i) => ({ path: `/reference/${i}` })),
  );
  const staticEntry = fileURLToPath(new URL('./static-server.js', import.meta.url));
  const node = await startCeiling('node:http static reply', staticEntry);
  const nginx = await startStaticNginx(workspace).catch((error: Error) => {
    process.stdout.write(
      `nginx could not start (${error.message.split('\n')[0]}); the generator check uses node:http alone\n`,
    );
    return null;
  });
  try {
    const sides = [{ name: 'node:http static reply', url: node.url, script }];
    if (nginx) sides.unshift({ name: 'nginx return 200', url: nginx.url, script });
    const summaries = await interleave(sides, {
      ...settings,
      durationSeconds: Math.min(settings.durationSeconds, 3),
      warmupSeconds: 1,
    });
    const nodeStatic = summaries[summaries.length - 1]!;
    const fastest = summaries.reduce((best, s) => (s.requestsPerSecond > best.requestsPerSecond ? s : best));
    return {
      maxRequestsPerSecond: fastest.requestsPerSecond,
      reference: fastest.name,
      nodeStaticRequestsPerSecond: nodeStatic.requestsPerSecond,
    };
  } finally {
    await Promise.all([node.stop(), nginx?.stop()]);
  }
}

/** The generator's limit: read from $BENCH_GENERATOR_FILE when an earlier benchmark of this run measured it, else measured (and stored there). */
export async function generatorLimit(
  settings: LoadSettings,
  workspace: Workspace,
): Promise<{ limit: GeneratorLimit; measuredNow: boolean }> {
  const file = process.env[GENERATOR_FILE_ENV];
  if (file && existsSync(file))
    return { limit: JSON.parse(await readFile(file, 'utf8')) as GeneratorLimit, measuredNow: false };
  const limit = await measureGenerator(settings, workspace);
  if (file) await writeFile(file, JSON.stringify(limit));
  return { limit, measuredNow: true };
}
