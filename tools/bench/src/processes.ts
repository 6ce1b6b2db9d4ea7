import { HTTP_SERVICE_NODE_FLAGS } from '@pawlink/service-kit/http-service-node-flags';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@pawlink/test-kit';
import { CEILING_CONFIG_ENV, CEILING_FRAMEWORK_ENV, CEILING_PORT_ENV } from './ceiling-server.js';

/** A server the benchmark started in its own process. */
export interface ServerProcess {
  name: string;
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  pid: number;
  /** SIGTERM, then SIGKILL after 10 s; safe to call twice. */
  stop: () => Promise<void>;
}

export interface Command {
  file: string;
  args: string[];
}

/** `node <entry>` with the Node running the benchmark. */
export const nodeScript = (entry: string, nodeArgs: string[] = []): Command => ({
  file: process.execPath,
  args: [...nodeArgs, entry],
});

export interface StartServerOptions {
  name: string;
  /** What to run: `nodeScript(entry)` for a built script (`dist/main.js`, a ceiling), or any binary. */
  command: Command;
  env: NodeJS.ProcessEnv;
  url: string;
  /** Polled until it answers at all (any status); default /online. */
  readyPath?: string;
  timeoutMs?: number;
}

const running = new Set<ChildProcess>();
const serverPids = new Map<string, number>();

/** The process id of the server this benchmark started at `url`, to read its CPU time. */
export const serverPid = (url: string): number | undefined => serverPids.get(url);
let exitHookInstalled = false;

/** Whatever way the benchmark ends, no server it started outlives it. */
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const leftover of running) leftover.kill('SIGKILL');
  });
}

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM, and SIGKILL if it is still running after `graceMs`; resolves once it has exited. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts `command` and waits until `url + readyPath` answers. Its stdout (JSON logs) is kept
 * back and shown only when it dies while starting; stderr passes through.
 */
export async function startServer(options: StartServerOptions): Promise<ServerProcess> {
  const child = spawn(options.command.file, options.command.args, {
    env: options.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  killOnExit(child);
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  let tail = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4000);
  });
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const server: ServerProcess = {
    name: options.name,
    url: options.url,
    pid: child.pid ?? -1,
    stop: () => stopProcess(child),
  };
  serverPids.set(options.url, server.pid);
  for (;;) {
    if (spawnError) throw new Error(`could not start ${options.name}: ${spawnError.message}`);
    if (hasExited(child))
      throw new Error(`${options.name} exited while starting (${child.exitCode ?? child.signalCode}):\n${tail}`);
    try {
      const response = await fetch(`${options.url}${options.readyPath ?? '/online'}`, {
        signal: AbortSignal.timeout(1000),
      });
      await response.arrayBuffer();
      return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${options.name} did not answer on ${options.url} in time:\n${tail}`);
    }
    await sleep(100);
  }
}

/**
 * Starts a ceiling script (see `serveCeiling`) on a free port; it reads `config` with
 * `ceilingConfig()`. `framework: 'express'` serves the same handler through a bare Express app.
 */
export async function startCeiling(
  name: string,
  entry: string,
  config: object = {},
  options: { framework?: 'express' } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const env = {
    ...process.env,
    [CEILING_PORT_ENV]: String(port),
    [CEILING_CONFIG_ENV]: JSON.stringify(config),
    ...(options.framework ? { [CEILING_FRAMEWORK_ENV]: options.framework } : {}),
  };
  // The services' own Node flags: a ceiling differs from the service in what it does, not in its runtime.
  return startServer({
    name,
    command: nodeScript(entry, [...HTTP_SERVICE_NODE_FLAGS]),
    env,
    url: `http://127.0.0.1:${port}`,
    readyPath: '/',
  });
}
