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
  /**
   * Forwards until a client sends bytes containing `text` (a command name as RESP spells it, e.g.
   * `subscribe`), then holds that connection as `stall()` does: the command reached the server but
   * its answer never arrives, as if the server stopped right after reading it. Once per call;
   * resolves when it has held a connection.
   */
  stallOn(text: string): Promise<void>;
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
  let stallTrigger: { text: string; held: () => void } | undefined;

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
    // After the pipe's own listener: the chunk has been written upstream, its answer is not back yet.
    client.on('data', (chunk: Buffer) => {
      const trigger = stallTrigger;
      if (trigger === undefined || !chunk.toString('latin1').toLowerCase().includes(trigger.text)) return;
      stallTrigger = undefined;
      holdPair(pair);
      trigger.held();
    });
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
    stallOn(text) {
      return new Promise<void>((held) => {
        stallTrigger = { text: text.toLowerCase(), held };
      });
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
