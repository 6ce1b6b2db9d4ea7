import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ThumbHash of each image (base64 of at most 25 bytes): a placeholder clients draw while the
 * image loads. Null until it is computed (at import, or by `bin/admin images thumbhash`).
 */
export class AddImageThumbhash1764100000000 implements MigrationInterface {
  name = 'AddImageThumbhash1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE images ADD COLUMN thumbhash VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE images DROP COLUMN thumbhash');
  }
}
