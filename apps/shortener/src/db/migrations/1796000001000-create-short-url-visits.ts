import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Counted visits per link and UTC day (`short_url_visits`), moved in batches from Redis; the
 * batches already applied (`short_url_visit_moves`, pruned after a day) make a retried move a
 * no-op, so a move interrupted between MySQL and Redis never counts twice. Rows are keyed by `pos`,
 * which is never reused, so a deleted entry's days cannot reach a new entry.
 */
export class CreateShortUrlVisits1796000001000 implements MigrationInterface {
  name = 'CreateShortUrlVisits1796000001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE short_url_visits (
        short_url_pos INT UNSIGNED NOT NULL,
        day DATE NOT NULL,
        visits BIGINT UNSIGNED NOT NULL,
        PRIMARY KEY (short_url_pos, day)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE short_url_visit_moves (
        batch_id VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        moved_at DATETIME(3) NOT NULL,
        PRIMARY KEY (batch_id),
        KEY ix_short_url_visit_moves_moved_at (moved_at)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE short_url_visit_moves');
    await queryRunner.query('DROP TABLE short_url_visits');
  }
}
