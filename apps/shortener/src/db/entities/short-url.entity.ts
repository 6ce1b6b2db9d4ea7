import { EntitySchema } from 'typeorm';

/**
 * One row of `short_urls`; `pos` is the AUTO_INCREMENT key: unique, but neither dense nor in creation
 * order on a Galera cluster (each node hands out its own share, `auto_increment_increment`), so
 * listings order by `created_at` and use `pos` only to break ties.
 */
export interface ShortUrl {
  pos: number;
  /** Case-sensitive (ascii_bin). */
  code: string;
  url: string;
  /**
   * SHA-256 of `url` on entries nobody can change (no management code), null on editable ones: only
   * those are shared between creators, so the url is unique among them (a 2048-char URL is longer
   * than an index may be, so uniqueness lives on its hash).
   */
  sharedUrlHash: Buffer | null;
  credit: string;
  /** SHA-256 hex of the management code; null when the entry is not editable. */
  managementCodeHash: string | null;
  createdAt: Date;
  /** Any edit, the credit alone included. */
  modifiedAt: Date | null;
  /** The last edit that changed `url`; drives the preview's notice, not part of the record. */
  urlChangedAt: Date | null;
  /** When the link stops redirecting; null: never by date. */
  expiresAt: Date | null;
  /** Counted visits after which the link stops redirecting; null: unlimited. */
  maxVisits: number | null;
  /** Visits admitted against `maxVisits` (exact: raised by a conditional UPDATE per visit). */
  maxVisitsUsed: number;
  /** When `maxVisitsUsed` reached `maxVisits`; null while it has not. */
  maxVisitsReachedAt: Date | null;
  /**
   * The API key (id in `<DB_PREFIX>auth`) that created the entry; null for entries created before
   * owners were recorded. Not a foreign key: the keys live in another schema, and deleting or
   * revoking a key changes nothing about its entries.
   */
  ownerKeyId: number | null;
  /** scrypt of the link's password (`domain/link-password.rules.ts`); null: no password. Never returned. */
  passwordHash: string | null;
  /** The redirect rules as JSON (`domain/redirect-rules.rules.ts`); null: none. */
  rules: string | null;
}

export const ShortUrlEntity = new EntitySchema<ShortUrl>({
  name: 'ShortUrl',
  tableName: 'short_urls',
  columns: {
    pos: { type: 'int', unsigned: true, primary: true, generated: 'increment' },
    code: { type: 'varchar', length: 50 },
    url: { type: 'varchar', length: 2048 },
    sharedUrlHash: { name: 'shared_url_hash', type: 'binary', length: 32, nullable: true },
    credit: { type: 'varchar', length: 50 },
    managementCodeHash: { name: 'management_code_hash', type: 'char', length: 64, nullable: true },
    createdAt: { name: 'created_at', type: 'datetime', precision: 3 },
    modifiedAt: { name: 'modified_at', type: 'datetime', precision: 3, nullable: true },
    urlChangedAt: { name: 'url_changed_at', type: 'datetime', precision: 3, nullable: true },
    expiresAt: { name: 'expires_at', type: 'datetime', precision: 3, nullable: true },
    maxVisits: { name: 'max_visits', type: 'int', unsigned: true, nullable: true },
    maxVisitsUsed: { name: 'max_visits_used', type: 'int', unsigned: true, default: 0 },
    maxVisitsReachedAt: { name: 'max_visits_reached_at', type: 'datetime', precision: 3, nullable: true },
    ownerKeyId: { name: 'owner_key_id', type: 'int', unsigned: true, nullable: true },
    passwordHash: { name: 'password_hash', type: 'varchar', length: 255, nullable: true },
    rules: { name: 'rules', type: 'mediumtext', nullable: true },
  },
  indices: [
    { name: 'uq_short_urls_code', columns: ['code'], unique: true },
    { name: 'uq_short_urls_shared_url_hash', columns: ['sharedUrlHash'], unique: true },
    { name: 'ix_short_urls_owner_created', columns: ['ownerKeyId', 'createdAt', 'pos'] },
  ],
});
