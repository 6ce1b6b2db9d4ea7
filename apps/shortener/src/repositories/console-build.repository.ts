import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One built file of the console, held in memory with its gzip form. */
export interface ConsoleFile {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

/** What `pnpm build` made of apps/console: its page and its content-hashed assets by name. */
export interface ConsoleBuild {
  page: ConsoleFile;
  assets: ReadonlyMap<string, ConsoleFile>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

function fileOf(file: string): ConsoleFile {
  const body = readFileSync(file);
  return { type: TYPES[path.extname(file)] ?? 'application/octet-stream', body, gzip: gzipSync(body, { level: 9 }) };
}

/** The console's build folder (`apps/console/dist`), found through the workspace package. */
export function consoleDistDir(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('@pawlink/console/package.json')), 'dist');
}

/** The built console's files, read from `dir` once, when first asked for. */
export class ConsoleBuildRepository {
  private build: ConsoleBuild | null | undefined;

  constructor(private readonly dir = consoleDistDir()) {}

  /** The build, or null when apps/console was not built. */
  read(): ConsoleBuild | null {
    if (this.build !== undefined) return this.build;
    const index = path.join(this.dir, 'index.html');
    if (!existsSync(index)) return (this.build = null);
    const assetsDir = path.join(this.dir, 'assets');
    const assets = new Map<string, ConsoleFile>();
    if (existsSync(assetsDir))
      for (const name of readdirSync(assetsDir)) assets.set(name, fileOf(path.join(assetsDir, name)));
    this.build = { page: fileOf(index), assets };
    return this.build;
  }
}
