import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each key's webhook secret for completion callbacks, sealed (AES-256-GCM, PAWLINK_SECRETS_KEY): never in clear. */
export class AddApiKeyWebhookSecret1766000000000 implements MigrationInterface {
  name = 'AddApiKeyWebhookSecret1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE api_keys ADD COLUMN webhook_secret_sealed VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_keys DROP COLUMN webhook_secret_sealed');
  }
}
