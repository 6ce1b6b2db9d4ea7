import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `modified_at` moves on any edit, a credit-only one too; the preview's "destination changed"
 * notice needs to know when the url itself last changed. Rows edited before this column existed
 * cannot tell which field changed, so they are assumed to have changed url: a visitor warned once
 * too often is better off than one not warned about a swapped destination.
 */
export class AddShortUrlsUrlChangedAt1795380000000 implements MigrationInterface {
  name = 'AddShortUrlsUrlChangedAt1795380000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE short_urls ADD COLUMN url_changed_at DATETIME(3) NULL AFTER modified_at');
    await queryRunner.query('UPDATE short_urls SET url_changed_at = modified_at WHERE modified_at IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE short_urls DROP COLUMN url_changed_at');
  }
}
