import type { ApiKey } from '@pawlink/auth';

/** One line about a key (never the key itself), as `apikey list` prints it. */
export const describeKey = (key: ApiKey): string =>
  [
    `id=${key.id}`,
    `name=${JSON.stringify(key.name)}`,
    `contact=${JSON.stringify(key.contact)}`,
    `flags=${key.flags.join(',') || '-'}`,
    `active=${key.active}`,
    `disabled=${key.disabled}${key.disabled ? ` reason=${JSON.stringify(key.disabledReason ?? '')}` : ''}`,
    `bulkLimit=${key.bulkLimit}`,
    `rateLimit=${key.rateLimitRoute ?? 'default'}/${key.rateLimitGlobal ?? 'default'}`,
    `created=${key.createdAt.toISOString()}`,
    `lastUsed=${key.lastUsedAt?.toISOString() ?? 'never'}`,
  ].join(' ');
