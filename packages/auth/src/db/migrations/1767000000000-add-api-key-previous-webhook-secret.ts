import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook secret a rotation replaced, sealed like the current one, and until when it still
 * signs beside it (`bin/admin apikey webhook-secret <id> --keep-previous-hours <n>`): the Standard
 * Webhooks header then carries both signatures, so receivers switch secrets without a gap.
 */
export class AddApiKeyPreviousWebhookSecret1767000000000 implements MigrationInterface {
  name = 'AddApiKeyPreviousWebhookSecret1767000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE api_keys ADD COLUMN webhook_secret_previous_sealed VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NULL, ADD COLUMN webhook_secret_previous_until DATETIME(3) NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE api_keys DROP COLUMN webhook_secret_previous_sealed, DROP COLUMN webhook_secret_previous_until',
    );
  }
}
