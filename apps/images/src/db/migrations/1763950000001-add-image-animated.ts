import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether an image has more than one frame, which `type=animated|still` picks by. Imports read it
 * from the file; rows stored before this migration were never probed for it, so their GIFs count
 * as animated and everything else as still.
 */
export class AddImageAnimated1763950000001 implements MigrationInterface {
  name = 'AddImageAnimated1763950000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE images ADD COLUMN animated TINYINT(1) NOT NULL DEFAULT 0');
    await queryRunner.query("UPDATE images SET animated = 1 WHERE mime_type = 'image/gif'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE images DROP COLUMN animated');
  }
}
