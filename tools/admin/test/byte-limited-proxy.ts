import net from 'node:net';

/**
 * A TCP proxy in front of MariaDB that passes `limit` bytes of answers in all, then cuts every
 * connection and refuses new ones: a database that dies part way through a long read, at a point
 * that depends on what was read and not on how fast (test-kit's TcpProxy cuts when a test says so).
 */
export interface ByteLimitedProxy {
  host: string;
  port: number;
  /** Whether the limit was reached and the connections cut. */
  readonly cut: boolean;
  /** Bytes of answers passed so far. */
  readonly passed: number;
  close(): Promise<void>;
}

export async function startByteLimitedProxy(
  target: { host: string; port: number },
  limit: number,
): Promise<ByteLimitedProxy> {
  let passed = 0;
  let cut = false;
  const sockets = new Set<net.Socket>();
  const cutAll = (): void => {
    cut = true;
    for (const socket of sockets) socket.destroy();
  };
  const server = net.createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket)).on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (cut) return;
      passed += chunk.length;
      if (passed > limit) cutAll();
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: '127.0.0.1',
    port: (server.address() as net.AddressInfo).port,
    get cut() {
      return cut;
    },
    get passed() {
      return passed;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
