import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Optional expiry of a link: a date (`expires_at`) and a number of counted visits (`max_visits`).
 * `max_visits_used` is the exact count that a conditional UPDATE raises once per admitted visit
 * (so the maxVisits-th visit is the last to redirect however many arrive at once);
 * `max_visits_reached_at` is when it reached `max_visits`. Existing rows keep their data and never expire.
 */
export class AddShortUrlsExpiry1796000000000 implements MigrationInterface {
  name = 'AddShortUrlsExpiry1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE short_urls
      ADD COLUMN expires_at DATETIME(3) NULL,
      ADD COLUMN max_visits INT UNSIGNED NULL,
      ADD COLUMN max_visits_used INT UNSIGNED NOT NULL DEFAULT 0,
      ADD COLUMN max_visits_reached_at DATETIME(3) NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE short_urls DROP COLUMN max_visits_reached_at, DROP COLUMN max_visits_used, DROP COLUMN max_visits, DROP COLUMN expires_at',
    );
  }
}
