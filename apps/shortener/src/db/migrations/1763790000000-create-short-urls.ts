import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Codes are ascii_bin so `abc` and `ABC` are different entries (the default collations are
 * case-insensitive). URLs are stored normalised by the WHATWG parser, which only emits ASCII.
 */
export class CreateShortUrls1763790000000 implements MigrationInterface {
  name = 'CreateShortUrls1763790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE short_urls (
        pos INT UNSIGNED NOT NULL AUTO_INCREMENT,
        code VARCHAR(50) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        url VARCHAR(2048) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        url_hash BINARY(32) NOT NULL,
        credit VARCHAR(50) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL,
        management_code_hash CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
        created_at DATETIME(3) NOT NULL,
        modified_at DATETIME(3) NULL,
        PRIMARY KEY (pos),
        UNIQUE KEY uq_short_urls_code (code),
        UNIQUE KEY uq_short_urls_url_hash (url_hash)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE short_urls');
  }
}
