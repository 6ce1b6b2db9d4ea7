import {
  ApiKeyRepository,
  authDatabase,
  parseSecretsKey,
  WebhookSecretService,
  type WebhookSecretStore,
} from '@pawlink/auth';
import { ConfigError, createDataSource } from '@pawlink/service-kit';
import type { RedisClient } from '@pawlink/service-kit/redis';
import type { DataSource } from 'typeorm';
import type { ThumbsWorkerConfig } from './config.js';
import {
  CallbackQueueRepository,
  openCallbackQueue,
  type CallbackQueue,
} from './repositories/callback-queue.repository.js';
import { CallbackGoneRepository } from './repositories/callback-gone.repository.js';
import { CallbackRegistrationRepository } from './repositories/callback-registration.repository.js';
import { CallbackSenderRepository } from './repositories/callback-sender.repository.js';
import { JobEndCursorRepository } from './repositories/job-end-cursor.repository.js';
import { callbackAttempts } from './domain/callback-retry.rules.js';
import { CallbackDeliveryService } from './services/callback-delivery.service.js';
import { CallbackDispatchService } from './services/callback-dispatch.service.js';

/*
 * The wiring of completion callbacks, on the worker process's main thread only (THUMBS_WORKER_ROLES
 * has `callbacks`). Kept out of container.ts, which every processor thread loads: this side reads
 * API keys through typeorm (docs/adr/0007 keeps that off the threads).
 */

export interface CallbackContainer {
  queue: CallbackQueue;
  cursor: JobEndCursorRepository;
  dispatch: CallbackDispatchService;
  delivery: CallbackDeliveryService;
  close(): Promise<void>;
}

/** PAWLINK_SECRETS_KEY as a key, null when unset; a malformed one stops the process. */
export function secretsKeyOf(config: ThumbsWorkerConfig): Buffer | null {
  if (config.callbacks.secretsKey === '') return null;
  const key = parseSecretsKey(config.callbacks.secretsKey);
  if (!key) throw new ConfigError('PAWLINK_SECRETS_KEY', 'must be 64 hex digits (or base64 of 32 bytes)');
  return key;
}

/** What receivers see in User-Agent. */
const CALLBACK_USER_AGENT = 'Pawlink-Callbacks/1.0 (thumbnail completion callbacks)';

/**
 * The keys' webhook secrets in `<DB_PREFIX>auth`, opened at the first delivery (a worker that
 * never delivers never needs the database, and does not wait for it to start); a failed open is
 * tried again at the next delivery, which the queue retries.
 */
export function lazyWebhookSecretStore(
  open: () => Promise<DataSource>,
): WebhookSecretStore & { close(): Promise<void> } {
  let keys: Promise<{ repository: ApiKeyRepository; dataSource: DataSource }> | undefined;
  const repository = async (): Promise<ApiKeyRepository> => {
    keys ??= open().then((dataSource) => ({ repository: new ApiKeyRepository(dataSource), dataSource }));
    try {
      return (await keys).repository;
    } catch (error) {
      keys = undefined;
      throw error;
    }
  };
  return {
    setWebhookSecretSealed: async (id, sealed, keepPreviousUntil) =>
      (await repository()).setWebhookSecretSealed(id, sealed, keepPreviousUntil),
    webhookSecretsSealedOf: async (id) => (await repository()).webhookSecretsSealedOf(id),
    async close() {
      const opened = await keys?.catch(() => undefined);
      keys = undefined;
      if (opened?.dataSource.isInitialized) await opened.dataSource.destroy();
    },
  };
}

/** Opens the auth schema for reading webhook secrets, failing fast like the runtime's connections. */
export function openAuthDataSource(config: ThumbsWorkerConfig): () => Promise<DataSource> {
  return async () => {
    const dataSource = createDataSource(
      config.database,
      { ...authDatabase, poolSize: 2 },
      {
        connectTimeoutMs: config.dependencyTimeouts.databaseConnectMs,
        queryTimeoutMs: config.dependencyTimeouts.databaseQueryMs,
      },
    );
    await dataSource.initialize();
    return dataSource;
  };
}

/**
 * `redis` is a plain connection (registrations, the cursor), `queueRedis` one made for BullMQ
 * (the delivery queue), `authDataSource` opens the `<DB_PREFIX>auth` schema (webhook secrets) when
 * the first delivery needs it.
 */
export function createCallbackContainer(
  config: ThumbsWorkerConfig,
  connections: { redis: RedisClient; queueRedis: RedisClient; authDataSource: () => Promise<DataSource> },
): CallbackContainer {
  const { callbacks } = config;
  const prefix = config.redis.prefix;
  const queue = openCallbackQueue(connections.queueRedis, prefix);
  const keys = lazyWebhookSecretStore(connections.authDataSource);
  const secrets = new WebhookSecretService({ keys, secretsKey: secretsKeyOf(config) });
  const sender = new CallbackSenderRepository({
    privateHosts: callbacks.privateHosts,
    timeoutMs: callbacks.timeoutMs,
    userAgent: CALLBACK_USER_AGENT,
  });
  return {
    queue,
    cursor: new JobEndCursorRepository(connections.redis, prefix),
    dispatch: new CallbackDispatchService({
      registrations: new CallbackRegistrationRepository(connections.redis, prefix),
      deliveries: new CallbackQueueRepository(queue, {
        attempts: callbackAttempts(callbacks.retryDelaysMs),
        keepFailedSeconds: callbacks.keepFailedSeconds,
      }),
      mediaUrl: config.urls.media,
    }),
    delivery: new CallbackDeliveryService({
      secrets,
      sender,
      gone: new CallbackGoneRepository(connections.redis, prefix),
      clock: Date.now,
    }),
    async close() {
      await queue.close();
      await keys.close();
    },
  };
}
