import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnNode } from '@pawlink/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessBook } from '../support/process-book.js';

/** The suite's "no process exited but the ones the suite killed" rests on this record. */
let dir: string;
let dies: string;
let waits: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pawlink-process-book-'));
  dies = path.join(dir, 'dies.mjs');
  waits = path.join(dir, 'waits.mjs');
  await writeFile(dies, "console.error('Error: Command timed out'); process.exit(1);\n");
  await writeFile(waits, 'setInterval(() => {}, 1000);\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ProcessBook', () => {
  it('counts a process that died by itself as unexpected, also when the suite later means to stop it', async () => {
    const book = new ProcessBook();
    const proc = spawnNode('dies', dies, {});
    book.add('shortener', proc);
    await proc.exited;
    // What the SIGTERM fault does to "the shortener" when it already died in an earlier fault.
    book.expectExit(proc);
    proc.child.kill('SIGTERM');
    expect(book.unexpectedExits().map((e) => ({ role: e.role, code: e.exit?.code }))).toEqual([
      { role: 'shortener', code: 1 },
    ]);
    expect(book.running()).toEqual([]);
  });

  it('does not count a process the suite said it would end, nor those stopped at the end', async () => {
    const book = new ProcessBook();
    const killed = spawnNode('killed', waits, {});
    const stopped = spawnNode('stopped', waits, {});
    book.add('worker', killed);
    book.add('images', stopped);
    book.expectExit(killed);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(book.running().map((e) => e.role)).toEqual(['images']);
    await book.stopAll(5000);
    expect(book.unexpectedExits()).toEqual([]);
    expect(book.entries.map((e) => e.exit?.expected)).toEqual([true, true]);
  });
});
