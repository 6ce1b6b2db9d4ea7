import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.js';
import { renderMediaNginxConf, unprivilegedNginxUser } from '@pawlink/infra/nginx/render-media-conf';

export interface StartedNginx {
  /** The master process; its workers are its children. */
  pid: number;
  port: number;
  /** e.g. http://127.0.0.1:40123 — media lives under /thumbs/ and /images/. */
  baseUrl: string;
  stop(): Promise<void>;
}

export interface StartNginxOptions {
  mediaDir: string;
  /** How long to wait for nginx to answer; default 15 s. */
  startTimeoutMs?: number;
}

export function nginxBinary(): string {
  if (process.env.NGINX_BIN) return process.env.NGINX_BIN;
  // /usr/sbin is often missing from non-root PATHs.
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

async function answers(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a private nginx serving `mediaDir` (thumbs/ and images/) with the production template.
 * Started as root (CI), its workers run as an unprivileged user as in production
 * (`unprivilegedNginxUser()`), so `mediaDir` is opened to others (o+rx: a temp dir is 0700); the
 * directories above it must be traversable and its files readable (the apps write 0644).
 */
export async function startNginx(options: StartNginxOptions): Promise<StartedNginx> {
  const mediaDir = await realpath(resolve(options.mediaDir));
  const runDir = await mkdtemp(join(tmpdir(), 'pawlink-nginx-'));
  const confPath = join(runDir, 'nginx.conf');
  const errorLog = join(runDir, 'error.log');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const timeoutMs = options.startTimeoutMs ?? 15_000;
  if (isRoot) await chmod(mediaDir, (await stat(mediaDir)).mode | 0o005);

  // A port can be taken between freePort() and bind(); retry a few times with a new one.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const conf = renderMediaNginxConf({ mediaDir, port, runDir, ...(isRoot ? { user: unprivilegedNginxUser() } : {}) });
    await writeFile(confPath, conf);

    const child = spawn(nginxBinary(), ['-c', confPath, '-e', errorLog, '-p', runDir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let spawnError: Error | undefined;
    child.on('error', (err) => {
      spawnError = err;
    });

    const stop = async (): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        if (!(await waitForExit(child, 5000))) {
          child.kill('SIGKILL');
          await waitForExit(child, 2000);
        }
      }
      await rm(runDir, { recursive: true, force: true });
    };

    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (spawnError || child.exitCode !== null || child.signalCode !== null) break;
      if ((await answers(baseUrl)) && child.pid !== undefined) return { pid: child.pid, port, baseUrl, stop };
      await sleep(50);
    }

    await waitForExit(child, 200);
    const exited = child.exitCode !== null || child.signalCode !== null;
    const log = await readFile(errorLog, 'utf8').catch(() => '');
    const details = `${spawnError?.message ?? ''}\n${stderr}\n${log}`.trim();
    if (exited && attempt < 3 && /Address already in use/.test(details)) {
      continue;
    }
    await stop();
    throw new Error(
      exited
        ? `nginx exited while starting (${nginxBinary()} -c ${confPath}): ${details}`
        : `nginx did not answer on ${baseUrl} within ${timeoutMs} ms: ${details}`,
    );
  }
}
