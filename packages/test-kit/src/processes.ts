import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { thumbsOpenApi, type OpenApiDocument } from '@pawlink/contracts/openapi';
import { request } from './http.js';
import { freePort } from './free-port.js';
import { bindContract } from './openapi/contracts.js';

/** The repository root (this file is `packages/test-kit/{src,dist}/processes.*`). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** How a process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A real Node process of the system, with every line it printed. */
export interface NodeProcess {
  name: string;
  child: ChildProcess;
  /** Every complete line written to stdout or stderr, in arrival order (a last partial line is added at exit). */
  lines: string[];
  /** The last `chars` characters of the output, for failure messages. */
  tail(chars?: number): string;
  /** Settles when the process has ended. */
  exited: Promise<ProcessExit>;
  /** SIGTERM, then the exit code (SIGKILL after `killAfterMs`, default 20 s). */
  stop(killAfterMs?: number): Promise<number | null>;
}

export interface ServiceProcess extends NodeProcess {
  url: string;
  port: number;
  /** Its metrics listener (`GET /metrics`), on a free port of its own. */
  metricsUrl: string;
}

/** Environment for a spawned process: the given variables plus what node needs to run, nothing inherited. */
export const processEnv = (env: Record<string, string>): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  ...env,
});

/** Splits a stream into lines; the partial last line is handed over by `flush`. */
function lineCollector(into: string[]): { push(chunk: Buffer): void; flush(): void } {
  let pending = '';
  return {
    push(chunk) {
      pending += chunk.toString();
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      into.push(...parts);
    },
    flush() {
      if (pending !== '') into.push(pending);
      pending = '';
    },
  };
}

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** Runs `node <script>` from the repository root, collecting its output line by line. */
export function spawnNode(name: string, script: string, env: Record<string, string>): NodeProcess {
  const child = spawn(process.execPath, [script], {
    cwd: REPO_ROOT,
    env: processEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const out = lineCollector(lines);
  const err = lineCollector(lines);
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  // 'close' comes after both pipes ended, so no line is missed.
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      out.flush();
      err.flush();
      resolve({ code, signal });
    });
  });
  child.on('error', (error) => lines.push(`${name}: ${String(error)}`));
  const stop = async (killAfterMs = 20_000): Promise<number | null> => {
    if (!hasExited(child)) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    const { code } = await exited;
    clearTimeout(timer);
    return code;
  };
  return { name, child, lines, tail: (chars = 4000) => lines.join('\n').slice(-chars), exited, stop };
}

const SERVICE_PORT_VARIABLE = { shortener: 'SHORTENER', images: 'IMAGES', thumbs: 'THUMBS' } as const;
/**
 * Each service's OpenAPI document: every response `request()` gets from a started service must
 * match it. A document generated from an app's endpoint declarations (docs/adr/0016) is read from
 * the app's build, beside the `main.js` that is started (test-kit cannot depend on the apps).
 */
const SERVICE_CONTRACT: Record<'shortener' | 'images' | 'thumbs', () => Promise<OpenApiDocument>> = {
  shortener: async () => {
    const built = (await import(new URL('apps/shortener/dist/openapi.js', pathToFileURL(REPO_ROOT)).href)) as {
      shortenerOpenApi: OpenApiDocument;
    };
    return built.shortenerOpenApi;
  },
  images: async () => {
    const built = (await import(new URL('apps/images/dist/openapi.js', pathToFileURL(REPO_ROOT)).href)) as {
      imagesOpenApi: OpenApiDocument;
    };
    return built.imagesOpenApi;
  },
  thumbs: () => Promise.resolve(thumbsOpenApi),
};
export type ServiceName = keyof typeof SERVICE_PORT_VARIABLE;

/**
 * Starts one real service process (`apps/<name>/dist/main.js`) and waits for `/online`. On `port`
 * when given (a restart keeps its address), else on a free one. Its answers to `request()` are
 * checked against the service's OpenAPI document.
 */
export async function startService(
  name: ServiceName,
  env: Record<string, string>,
  options: { port?: number; label?: string } = {},
): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort();
  const variable = SERVICE_PORT_VARIABLE[name];
  const proc = spawnNode(options.label ?? name, `apps/${name}/dist/main.js`, {
    ...env,
    [`${variable}_PORT`]: String(port),
    [`${variable}_URL`]: url,
    // Never the fixed default: tests run many instances side by side.
    [`${variable}_METRICS_PORT`]: String(metricsPort),
    METRICS_HOST: '127.0.0.1',
  });
  bindContract(url, await SERVICE_CONTRACT[name]());
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await request(`${url}/online`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (up?.status === 200) break;
    if (hasExited(proc.child) || Date.now() > deadline) {
      proc.child.kill('SIGKILL');
      await proc.exited;
      throw new Error(`${name} did not start:\n${proc.tail()}`);
    }
    await sleep(100);
  }
  return { ...proc, url, port, metricsUrl: `http://127.0.0.1:${metricsPort}` };
}

/** Starts one real thumbnail worker process (`apps/thumbs-worker/dist/main.js`). */
export function startWorker(name: string, env: Record<string, string>): NodeProcess {
  return spawnNode(name, 'apps/thumbs-worker/dist/main.js', env);
}

/** Runs the real `bin/admin` with the given environment (nothing else inherited). */
export function admin(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(`${REPO_ROOT}bin/admin`, args, { env: processEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Creates an API key named `name` through the CLI and returns it (the last stdout line). */
export async function createKey(
  env: Record<string, string>,
  flags: string,
  extra: string[] = [],
  name = 'e2e',
): Promise<string> {
  const result = await admin(env, [
    'apikey',
    'create',
    '--name',
    name,
    '--contact',
    `${name}@example.com`,
    '--flags',
    flags,
    ...extra,
  ]);
  if (result.code !== 0) throw new Error(`apikey create failed: ${result.stderr}`);
  return result.stdout.trim().split('\n').pop() ?? '';
}
