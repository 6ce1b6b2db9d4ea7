import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Temporary names: hidden (nginx denies dotfiles), next to the target, recognisable by the sweep. */
export const TEMP_FILE_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

const tempNameFor = (name: string): string => `.${name}.${randomBytes(6).toString('hex')}.tmp`;

/**
 * Writes `bytes` to `dir/name` so that a reader (nginx) only ever sees the complete file: the
 * bytes go to a hidden temporary name in the same directory, are flushed to disk, and renamed into
 * place. The temporary file is removed whatever happens. Returns the final path.
 */
export async function writeFileAtomically(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  await mkdir(dir, { recursive: true });
  const finalPath = path.join(dir, name);
  const tmpPath = path.join(dir, tempNameFor(name));
  try {
    const handle = await open(tmpPath, 'wx', 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmpPath, finalPath);
    return finalPath;
  } catch (error) {
    await rm(tmpPath, { force: true });
    throw error;
  }
}
