import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `bytes` to `dir/name` so that a reader (nginx) only ever sees the complete file: the
 * bytes go to a hidden temp name in the same directory, are flushed, and renamed into place.
 * The temp file is removed whatever happens.
 */
export async function writeFileAtomically(dir: string, name: string, bytes: Buffer): Promise<string> {
  await mkdir(dir, { recursive: true });
  const finalPath = path.join(dir, name);
  const tmpPath = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
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
  } finally {
    await rm(tmpPath, { force: true });
  }
}
