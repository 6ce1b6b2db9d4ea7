import { Redis } from 'ioredis';

/**
 * Whether a Redis server on 127.0.0.1:`port` answers PING within a second; never retries (a
 * server a suite started, or stopped, must say so at once).
 */
export async function redisAnswers(port: number): Promise<boolean> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
