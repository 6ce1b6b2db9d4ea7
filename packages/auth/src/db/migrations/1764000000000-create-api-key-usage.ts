import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateApiKeyUsage1764000000000 implements MigrationInterface {
  name = 'CreateApiKeyUsage1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_key_usage (
        key_id INT UNSIGNED NOT NULL,
        day DATE NOT NULL,
        service VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        route VARCHAR(150) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        count BIGINT UNSIGNED NOT NULL,
        PRIMARY KEY (key_id, day, service, route)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
    await queryRunner.query(`
      CREATE TABLE api_key_usage_moves (
        batch_id VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        moved_at DATETIME(3) NOT NULL,
        PRIMARY KEY (batch_id),
        KEY ix_api_key_usage_moves_moved_at (moved_at)
      ) ENGINE=InnoDB`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE api_key_usage_moves');
    await queryRunner.query('DROP TABLE api_key_usage');
  }
}
