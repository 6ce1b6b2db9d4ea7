import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, request } from '@pawlink/test-kit';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  /** SIGTERM, then the exit code (SIGKILL after 20 s). */
  stop(): Promise<number | null>;
}

/** Environment for a spawned process: the test context's plus what node needs to run. */
export const processEnv = (env: Record<string, string>): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  ...env,
});

export function spawnNode(name: string, script: string, env: Record<string, string>): { child: ChildProcess; output: string[] } {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: processEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 300) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => output.push(`${name}: ${String(error)}`));
  return { child, output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, 'exit') as Promise<[number | null]>;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = await exited;
  clearTimeout(timer);
  return code;
}

const SERVICE_PORT_VARIABLE = { shortener: 'SHORTENER', images: 'IMAGES', thumbs: 'THUMBS' } as const;

/** Starts one real service process (`apps/<name>/dist/main.js`) on a free port and waits for /online. */
export async function startService(name: keyof typeof SERVICE_PORT_VARIABLE, env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const variable = SERVICE_PORT_VARIABLE[name];
  const { child, output } = spawnNode(name, `apps/${name}/dist/main.js`, { ...env, [`${variable}_PORT`]: String(port), [`${variable}_URL`]: url });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await request(`${url}/online`).catch(() => undefined);
    if (up?.status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start:\n${output.join('')}`);
    }
    await sleep(100);
  }
  return { name, url, child, output, stop: () => stop(child) };
}

/** Starts one real thumbnail worker process (`apps/thumbs-worker/dist/main.js`). */
export function startWorker(name: string, env: Record<string, string>): ServiceProcess {
  const { child, output } = spawnNode(name, 'apps/thumbs-worker/dist/main.js', env);
  return { name, url: '', child, output, stop: () => stop(child) };
}

/** Runs the real `bin/admin` with the given environment. */
export function admin(env: Record<string, string>, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(`${ROOT}bin/admin`, args, { env: processEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Creates an API key through the CLI and returns it (the last stdout line). */
export async function createKey(env: Record<string, string>, flags: string, extra: string[] = []): Promise<string> {
  const result = await admin(env, ['apikey', 'create', '--name', 'e2e', '--contact', 'e2e@example.com', '--flags', flags, ...extra]);
  if (result.code !== 0) throw new Error(`apikey create failed: ${result.stderr}`);
  return result.stdout.trim().split('\n').pop() ?? '';
}
