import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The server refused the ALGORITHM (or LOCK) asked for: ER_ALTER_OPERATION_NOT_SUPPORTED(_REASON), ER_UNKNOWN_ALTER_ALGORITHM / _LOCK, or a server whose parser does not know the word. */
const NOT_SUPPORTED_ERRNOS = new Set([1845, 1846, 1800, 1801, 1064]);

export function isUnsupportedAlgorithm(error: unknown): boolean {
  const errno =
    (error as { driverError?: { errno?: number }; errno?: number }).driverError?.errno ??
    (error as { errno?: number }).errno;
  return errno !== undefined && NOT_SUPPORTED_ERRNOS.has(errno);
}

/** Runs the first of `statements` the server accepts; the last one is the plain form every server takes. */
export async function firstAccepted(queryRunner: QueryRunner, statements: readonly string[]): Promise<void> {
  for (const [i, statement] of statements.entries()) {
    try {
      await queryRunner.query(statement);
      return;
    } catch (error) {
      if (i === statements.length - 1 || !isUnsupportedAlgorithm(error)) throw error;
    }
  }
}

/**
 * The API key that created an entry (`owner_key_id`, null for every entry created before), and the
 * keyset index of `GET /links` (owner, newest first, then pos).
 *
 * `short_urls` can be large, so neither step may hold it locked for long:
 * - the nullable column is added with ALGORITHM=INSTANT (metadata only: MariaDB ≥ 10.3, MySQL ≥ 8.0.12),
 *   else INPLACE with LOCK=NONE (reads and writes go on while the table is rebuilt), else plainly;
 * - the index is built with ALGORITHM=INPLACE, LOCK=NONE (online: writes go on while it is built),
 *   else plainly on a server that cannot.
 * No foreign key: keys live in another schema, and deleting or revoking one changes nothing here.
 */
export class AddShortUrlsOwner1796100000000 implements MigrationInterface {
  name = 'AddShortUrlsOwner1796100000000';
  // An online ALTER cannot run inside a transaction on MySQL (DDL commits implicitly anyway).
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    const addColumn = 'ALTER TABLE short_urls ADD COLUMN owner_key_id INT UNSIGNED NULL';
    await firstAccepted(queryRunner, [
      `${addColumn}, ALGORITHM=INSTANT`,
      `${addColumn}, ALGORITHM=INPLACE, LOCK=NONE`,
      addColumn,
    ]);
    const addIndex = 'ALTER TABLE short_urls ADD INDEX ix_short_urls_owner_created (owner_key_id, created_at, pos)';
    await firstAccepted(queryRunner, [`${addIndex}, ALGORITHM=INPLACE, LOCK=NONE`, addIndex]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE short_urls DROP INDEX ix_short_urls_owner_created, DROP COLUMN owner_key_id');
  }
}
