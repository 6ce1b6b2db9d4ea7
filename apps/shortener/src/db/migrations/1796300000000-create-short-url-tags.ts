import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A link's tags (issue 38): one row per link and tag, keyed by both (every table has a primary
 * key: Galera replicates InnoDB rows by it). `owner_key_id` repeats the link's owner (it never
 * changes) so `GET /tags` counts one key's tags from the index `(owner_key_id, tag)` alone. A new
 * table only: nothing locks `short_urls`, however large (measured in docs/adr/0022).
 */
export class CreateShortUrlTags1796300000000 implements MigrationInterface {
  name = 'CreateShortUrlTags1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE short_url_tags (
        short_url_pos INT UNSIGNED NOT NULL,
        tag VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        owner_key_id INT UNSIGNED NULL,
        PRIMARY KEY (short_url_pos, tag),
        KEY ix_short_url_tags_owner_tag (owner_key_id, tag)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE short_url_tags');
  }
}
