import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's default ephemeral range, used when /proc cannot be read. */
const DEFAULT_EPHEMERAL_LOW = 32768;
/** Ports below this are left to system services (MariaDB's 3306, Redis's 6379, …). */
const PRIVATE_LOW = 10_000;
const MIN_RANGE = 2000;

/**
 * The ports freePort() picks from: below the kernel's ephemeral range. `listen(0)` and every
 * outgoing connection take their port from that range, so a port picked here can only be taken by
 * another freePort() caller between the probe and the caller's own bind, not by one of the
 * thousands of sockets the suite opens. When the ephemeral range leaves too little room below it,
 * the kernel's own choice (`listen(0)`) is used.
 */
export function freePortRange(ephemeralRange = readEphemeralRange()): { low: number; high: number } | undefined {
  const high = ephemeralRange.low - 1;
  return high - PRIVATE_LOW + 1 >= MIN_RANGE ? { low: PRIVATE_LOW, high } : undefined;
}

function readEphemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return { low: low!, high: high! };
  } catch {
    // not Linux, or /proc not mounted
  }
  return { low: DEFAULT_EPHEMERAL_LOW, high: 60999 };
}

/** Whether 127.0.0.1:`port` can be bound now; resolves with the port the kernel gave for port 0. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolvePort(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolvePort(bound));
    });
  });
}

/** Ports this process has handed out, so two calls in a row never give the same one. */
const handedOut = new Set<number>();
let range: { low: number; high: number } | undefined | null = null;

/**
 * A port on 127.0.0.1 that nothing listens on now, for a server a test is about to start. It is
 * not held: the caller binds it. See freePortRange() for why it comes from below the ephemeral range.
 */
export async function freePort(): Promise<number> {
  if (range === null) range = freePortRange();
  return freePortIn(range, handedOut);
}

/** freePort() over `portRange`, skipping and then adding to `skip`; the kernel's choice when there is no range or it is full. */
export async function freePortIn(
  portRange: { low: number; high: number } | undefined,
  skip: Set<number>,
): Promise<number> {
  if (portRange) {
    const size = portRange.high - portRange.low + 1;
    for (let attempt = 0; attempt < Math.min(200, size * 4); attempt++) {
      const port = portRange.low + Math.floor(Math.random() * size);
      if (skip.has(port)) continue;
      if ((await probe(port)) === port) {
        skip.add(port);
        return port;
      }
    }
  }
  const port = await probe(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
