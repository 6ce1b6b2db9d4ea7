import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateApiKeys1763780000000 implements MigrationInterface {
  name = 'CreateApiKeys1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id INT UNSIGNED NOT NULL AUTO_INCREMENT,
        key_hash CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        name VARCHAR(100) NOT NULL,
        contact VARCHAR(255) NOT NULL,
        flags TEXT NOT NULL,
        active TINYINT(1) NOT NULL DEFAULT 1,
        disabled TINYINT(1) NOT NULL DEFAULT 0,
        disabled_reason VARCHAR(500) NULL,
        bulk_limit INT UNSIGNED NOT NULL DEFAULT 100,
        rate_limit_route INT UNSIGNED NULL,
        rate_limit_global INT UNSIGNED NULL,
        created_at DATETIME(3) NOT NULL,
        last_used_at DATETIME(3) NULL,
        PRIMARY KEY (id),
        UNIQUE KEY uq_api_keys_key_hash (key_hash)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE api_keys');
  }
}
