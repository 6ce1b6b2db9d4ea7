import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A temporary directory for one benchmark's scripts and files, removed at its end. */
export interface Workspace {
  root: string;
  /** A subdirectory, created. */
  dir: (name: string) => Promise<string>;
  /** A path inside the workspace (not created). */
  file: (name: string) => string;
  remove: () => Promise<void>;
}

export async function createWorkspace(label: string): Promise<Workspace> {
  const root = await mkdtemp(path.join(os.tmpdir(), `pawlink-bench-${label}-`));
  return {
    root,
    async dir(name) {
      const dir = path.join(root, name);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    file: (name) => path.join(root, name),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
