import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys are ASCII with binary collation: category keys and MD5s are case-sensitive identifiers.
 * (category, id) serves the index rebuild's keyset pages; (category, mime_type, size) covers the
 * per-category aggregates without touching the rows. Random picks never use MySQL indexes:
 * they go through the Redis size index and then load rows by primary key.
 */
export class CreateImages1763800000000 implements MigrationInterface {
  name = 'CreateImages1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE categories (
        db VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        name VARCHAR(200) NOT NULL,
        disabled TINYINT(1) NOT NULL DEFAULT 0,
        disabled_comment VARCHAR(500) NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (db)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE images (
        id CHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        category VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        ext VARCHAR(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        mime_type VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        size BIGINT UNSIGNED NOT NULL,
        width INT UNSIGNED NOT NULL,
        height INT UNSIGNED NOT NULL,
        artists JSON NOT NULL,
        sources JSON NOT NULL,
        report_url VARCHAR(2048) NULL,
        short_url VARCHAR(2048) NULL,
        created_at DATETIME(3) NOT NULL,
        PRIMARY KEY (id),
        KEY idx_images_category_id (category, id),
        KEY idx_images_category_type_size (category, mime_type, size),
        CONSTRAINT fk_images_category FOREIGN KEY (category) REFERENCES categories (db) ON UPDATE CASCADE ON DELETE RESTRICT
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE images');
    await queryRunner.query('DROP TABLE categories');
  }
}
