import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where visits came from, per link, UTC day, dimension (`r` referrer host, `c` country, `b`
 * browser, `o` OS, `d` device) and value: moved from Redis in the same batches, and the same
 * transactions, as `short_url_visits`, so each dimension adds up to the day's visits. At most 50
 * values per link, day and dimension (countries excepted), the rest under `other`. A new table
 * only: nothing locks `short_urls` or `short_url_visits`. Keyed by `pos` like the visits.
 */
export class CreateShortUrlVisitBreakdown1796200000000 implements MigrationInterface {
  name = 'CreateShortUrlVisitBreakdown1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE short_url_visit_breakdown (
        short_url_pos INT UNSIGNED NOT NULL,
        day DATE NOT NULL,
        dimension CHAR(1) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        value VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        visits BIGINT UNSIGNED NOT NULL,
        PRIMARY KEY (short_url_pos, day, dimension, value)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE short_url_visit_breakdown');
  }
}
