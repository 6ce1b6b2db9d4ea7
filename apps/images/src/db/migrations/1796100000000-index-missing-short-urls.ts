import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The short-link filler asks every few seconds for images whose short_url is NULL, by id. A
 * one-character prefix of short_url (NULL stays NULL in it) followed by id answers that with the
 * missing rows alone, however many images already have their link; short_url itself is too long
 * to index whole.
 */
export class IndexMissingShortUrls1796100000000 implements MigrationInterface {
  name = 'IndexMissingShortUrls1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE images ADD KEY idx_images_short_url_missing (short_url(1), id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE images DROP KEY idx_images_short_url_missing');
  }
}
