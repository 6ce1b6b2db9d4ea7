import type { MigrationInterface, QueryRunner } from 'typeorm';
import { firstAccepted } from './1796100000000-add-short-urls-owner.js';

/**
 * A link's password (`password_hash`: scrypt, salted, never returned) and redirect rules (`rules`:
 * JSON text, issue 38), both nullable. `short_urls` can be large: the columns are added with
 * ALGORITHM=INSTANT (metadata only: MariaDB ≥ 10.3, MySQL ≥ 8.0.12), else INPLACE with LOCK=NONE
 * (reads and writes go on during the rebuild), else plainly (measured in docs/adr/0022).
 */
export class AddShortUrlsPasswordAndRules1796300001000 implements MigrationInterface {
  name = 'AddShortUrlsPasswordAndRules1796300001000';
  // An online ALTER cannot run inside a transaction on MySQL (DDL commits implicitly anyway).
  transaction = false as const;

  async up(queryRunner: QueryRunner): Promise<void> {
    const add =
      'ALTER TABLE short_urls ADD COLUMN password_hash VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NULL, ADD COLUMN rules MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL';
    await firstAccepted(queryRunner, [`${add}, ALGORITHM=INSTANT`, `${add}, ALGORITHM=INPLACE, LOCK=NONE`, add]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE short_urls DROP COLUMN rules, DROP COLUMN password_hash');
  }
}
