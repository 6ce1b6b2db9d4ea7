import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImageCredits } from '../services/image-import.service.js';
import { CommandFailure } from '@pawlink/service-kit/cli';
import { quoted } from '../domain/image-credits.rules.js';

/** Per-file details a sidecar JSON may give, keyed by file name (or path relative to the cwd). */
export interface SidecarEntry {
  artists?: string[];
  sources?: string[];
  reportURL?: string | null;
  shortURL?: string | null;
}
export type Sidecar = Record<string, SidecarEntry>;

const SIDECAR_MAX_BYTES = 64 * 1024 * 1024;

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/**
 * Checks the shape of a parsed sidecar (an object of objects, artists and sources arrays of
 * strings, URLs strings or null); throws a message naming the bad entry. What the strings say is
 * checked per file at import (`normaliseCredits`): a file with a bad credit is refused with the
 * reason and the others are imported.
 */
export function parseSidecar(json: unknown): Sidecar {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('the sidecar must be a JSON object of file name → {artists, sources}.');
  for (const [file, entry] of Object.entries(json as Record<string, unknown>)) {
    const fail = (detail: string): never => {
      throw new Error(`sidecar entry ${quoted(file)}: ${detail}`);
    };
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) fail('must be an object.');
    const { artists, sources, reportURL, shortURL } = entry as Record<string, unknown>;
    if (artists !== undefined && !isStringArray(artists)) fail('artists must be an array of strings.');
    if (sources !== undefined && !isStringArray(sources)) fail('sources must be an array of strings.');
    for (const [name, value] of [['reportURL', reportURL] as const, ['shortURL', shortURL] as const]) {
      if (value !== undefined && value !== null && typeof value !== 'string') fail(`${name} must be a string or null.`);
    }
  }
  return json as Sidecar;
}

/** Reads and validates `--meta`; any problem stops the command before a file is imported. */
export async function readSidecar(file: string): Promise<Sidecar> {
  try {
    // A FIFO or a device (/dev/stdin, /dev/zero) would block or never end.
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a regular file.');
    if (info.size > SIDECAR_MAX_BYTES) throw new Error(`larger than ${SIDECAR_MAX_BYTES / 1024 / 1024} MiB.`);
    return parseSidecar(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    throw new CommandFailure(`Cannot use the sidecar ${file}: ${(error as Error).message}`);
  }
}

function sidecarEntry(sidecar: Sidecar | undefined, file: string): SidecarEntry | undefined {
  if (!sidecar) return undefined;
  // Own keys only: a file named "constructor" must not find Object.prototype.constructor.
  for (const key of [path.basename(file), path.relative(process.cwd(), file), file]) {
    if (Object.hasOwn(sidecar, key)) return sidecar[key];
  }
  return undefined;
}

/** Each file's credits: its sidecar entry's where it has one, the flags' otherwise. */
export function creditsFrom(
  flags: { artists: string[]; sources: string[] },
  sidecar: Sidecar | undefined,
): (file: string) => ImageCredits {
  return (file) => {
    const entry = sidecarEntry(sidecar, file);
    return {
      artists: entry?.artists ?? flags.artists,
      sources: entry?.sources ?? flags.sources,
      reportUrl: entry?.reportURL ?? null,
      shortUrl: entry?.shortURL ?? null,
    };
  };
}
