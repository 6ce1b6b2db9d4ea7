import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Entries brought in by `bin/admin links import` (issue 39): where each came from (its source and
 * the identity it had there, unique per owner, so a re-run skips what is already in), and the
 * visits it had counted there (added to its total; not per day, since no source says when).
 * Keyed by `pos`, never reused, so a deleted entry's row cannot reach a new entry.
 */
export class CreateShortUrlImports1796390000000 implements MigrationInterface {
  name = 'CreateShortUrlImports1796390000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE short_url_imports (
        short_url_pos INT UNSIGNED NOT NULL,
        owner_key_id INT UNSIGNED NOT NULL,
        source VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        origin VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        visits BIGINT UNSIGNED NOT NULL,
        imported_at DATETIME(3) NOT NULL,
        PRIMARY KEY (short_url_pos),
        UNIQUE KEY uq_short_url_imports_origin (owner_key_id, source, origin)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE short_url_imports');
  }
}
