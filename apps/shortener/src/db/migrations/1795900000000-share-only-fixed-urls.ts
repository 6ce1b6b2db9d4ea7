import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Only entries nobody can change are shared between creators (API.md §2): an editable entry
 * belongs to whoever holds its management code, so handing it to a second creator would let the
 * first one move the second one's published link. The url hash that makes a URL unique is
 * therefore kept only on non-editable entries (`shared_url_hash`, NULL on editable ones: a unique
 * index allows any number of NULLs). Existing rows keep their data; editable ones stop being shared.
 */
export class ShareOnlyFixedUrls1795900000000 implements MigrationInterface {
  name = 'ShareOnlyFixedUrls1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE short_urls CHANGE url_hash shared_url_hash BINARY(32) NULL, RENAME INDEX uq_short_urls_url_hash TO uq_short_urls_shared_url_hash',
    );
    await queryRunner.query('UPDATE short_urls SET shared_url_hash = NULL WHERE management_code_hash IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Fails, as it must, when editable entries now share a url with another entry.
    await queryRunner.query(
      'UPDATE short_urls SET shared_url_hash = UNHEX(SHA2(url, 256)) WHERE shared_url_hash IS NULL',
    );
    await queryRunner.query(
      'ALTER TABLE short_urls CHANGE shared_url_hash url_hash BINARY(32) NOT NULL, RENAME INDEX uq_short_urls_shared_url_hash TO uq_short_urls_url_hash',
    );
  }
}
