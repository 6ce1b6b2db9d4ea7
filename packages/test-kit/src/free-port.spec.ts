import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, freePortIn, freePortRange } from './free-port.js';

describe('freePortRange', () => {
  it('is the room between the system services and the kernel ephemeral range', () => {
    expect(freePortRange({ low: 32768, high: 60999 })).toEqual({ low: 10_000, high: 32767 });
  });

  it('is none when the ephemeral range starts too low to leave room (the kernel then chooses)', () => {
    expect(freePortRange({ low: 1024, high: 65535 })).toBeUndefined();
  });
});

describe('freePort', () => {
  it('gives distinct ports, each free to bind, outside the ephemeral range that listen(0) and outgoing connections use', async () => {
    const range = freePortRange();
    const ports: number[] = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) {
      if (range) {
        expect(port).toBeGreaterThanOrEqual(range.low);
        expect(port).toBeLessThanOrEqual(range.high);
      }
      const server = createServer().listen(port, '127.0.0.1');
      await once(server, 'listening');
      server.close();
    }
  });

  it('never gives a port something listens on, nor one it gave before', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const taken = (server.address() as AddressInfo).port;
    try {
      const given = new Set<number>();
      // A range of three: the listened-on port, and two free ones (skipped when something else holds them).
      const range = { low: taken, high: taken + 2 };
      const first = await freePortIn(range, given);
      const second = await freePortIn(range, given);
      for (const port of [first, second]) expect(port).not.toBe(taken);
      expect(second).not.toBe(first);
    } finally {
      server.close();
    }
  });
});
