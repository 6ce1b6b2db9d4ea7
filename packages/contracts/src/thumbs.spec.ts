import { describe, expect, it } from 'vitest';
import { thumbnailWorkerName, thumbnailWorkerSlots } from './thumbs.js';

describe('thumbnail worker names', () => {
  it('announce the worker\'s concurrency, read back from its Redis client name', () => {
    const name = thumbnailWorkerName('media-2', 4711, 4);
    expect(name).toBe('media-2:4711:c4');
    expect(thumbnailWorkerSlots(`pawlink:bull:thumbs:w:${name}`)).toBe(4);
  });

  it('count a worker that does not say as one slot', () => {
    for (const clientName of ['pawlink:bull:thumbs', 'pawlink:bull:thumbs:w:host:12', 'x:c0', 'x:c', 'x:c12345', '']) {
      expect(thumbnailWorkerSlots(clientName), clientName).toBe(1);
    }
  });
});
