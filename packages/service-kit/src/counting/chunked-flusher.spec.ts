import { describe, expect, it } from 'vitest';
import { ChunkedFlusher } from './chunked-flusher.js';

const quietLogger = { info: () => undefined, warn: () => undefined };

describe('ChunkedFlusher', () => {
  it('sends 1,000 counts per chunk, keeps a chunk Redis refused and sends it again under the same id', async () => {
    let counted = Array.from({ length: 2_500 }, (_, i) => i);
    const sent: Array<{ id: string; size: number }> = [];
    const refused: string[] = [];
    let redisDown = true;
    const flusher = new ChunkedFlusher<number>({
      drain: () => {
        const drained = counted;
        counted = [];
        return drained;
      },
      send: (chunkId, counts) => {
        if (redisDown) {
          refused.push(chunkId);
          return Promise.reject(new Error('Connection is closed.'));
        }
        sent.push({ id: chunkId, size: counts.length });
        return Promise.resolve();
      },
      flushMs: 60_000,
      logger: quietLogger,
      what: 'test counts',
    });

    await flusher.flush();
    expect(sent).toEqual([]);
    expect(refused).toHaveLength(1);
    expect(flusher.waiting).toHaveLength(2_500);

    redisDown = false;
    counted = [1, 2, 3];
    await flusher.flush();
    expect(sent.map((chunk) => chunk.size)).toEqual([1_000, 1_000, 500, 3]);
    // the refused chunk is sent again under its id, so Redis adds it at most once
    expect(sent[0]!.id).toBe(refused[0]);
    expect(new Set(sent.map((chunk) => chunk.id)).size).toBe(4);
    expect(flusher.waiting).toHaveLength(0);
  });
});
