import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Categories say whether they are safe for work; none is unless an operator says so. */
export class AddCategorySfw1763950000000 implements MigrationInterface {
  name = 'AddCategorySfw1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE categories ADD COLUMN sfw TINYINT(1) NOT NULL DEFAULT 0 AFTER name');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE categories DROP COLUMN sfw');
  }
}
