import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * A file holding one API key for a program that needs it again on its next start (`npm start`'s
 * demo and images-service keys): `<id> <key>` on one line, readable by its owner only.
 */
export class KeyFileRepository {
  constructor(readonly file: string) {}

  /** The stored key (the line's last word), or undefined when there is no file or it names none. */
  async read(): Promise<string | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const words = text.trim().split(/\s+/);
    const key = words[words.length - 1];
    return key === undefined || key === '' ? undefined : key;
  }

  /** Replaces the file at once (a temporary name, then a rename), mode 600. */
  async write(id: number, key: string): Promise<void> {
    const dir = path.dirname(this.file);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = path.join(dir, `.${path.basename(this.file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(`${id} ${key}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}
