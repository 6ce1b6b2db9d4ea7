import net from 'node:net';

/**
 * A TCP proxy in front of a real server (MariaDB, Redis) that a test can make misbehave like a
 * failing dependency, without touching the shared server: `stall()` keeps every connection open
 * and holds every byte (a paused process: SIGSTOP), `cut()` closes every connection and refuses
 * new ones (a dead one), `restore()` lets the held bytes through and accepts again (SIGCONT, or a
 * restart).
 */
export interface TcpProxy {
  port: number;
  host: string;
  stall(): void;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

type Pair = { client: net.Socket; upstream: net.Socket };

const connectPair = ({ client, upstream }: Pair): void => {
  client.pipe(upstream);
  upstream.pipe(client);
};

/** Nothing is read while held: bytes wait in the sockets, as they would for a stopped process. */
const holdPair = ({ client, upstream }: Pair): void => {
  client.unpipe(upstream);
  upstream.unpipe(client);
  client.pause();
  upstream.pause();
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: 'forward' | 'stall' | 'cut' = 'forward';
  const pairs = new Set<Pair>();

  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    if (mode === 'forward') connectPair(pair);
    else holdPair(pair);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    host: '127.0.0.1',
    stall() {
      mode = 'stall';
      for (const pair of pairs) holdPair(pair);
    },
    cut() {
      mode = 'cut';
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      mode = 'forward';
      for (const pair of pairs) connectPair(pair);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
