import { EntitySchema } from 'typeorm';

export interface CategoryRow {
  /** Dotted key such as `furry.yiff.gay`; the identifier in paths and bulk bodies. */
  db: string;
  /** Display name with " > " between groups: "Furry > Yiff > Gay". */
  name: string;
  /** Safe for work: the only categories keys with `sfw_only` may use. */
  sfw: boolean;
  disabled: boolean;
  disabledComment: string | null;
  createdAt: Date;
}

export const CategoryEntity = new EntitySchema<CategoryRow>({
  name: 'Category',
  tableName: 'categories',
  columns: {
    db: { type: 'varchar', length: 100, primary: true },
    name: { type: 'varchar', length: 200 },
    sfw: { type: 'boolean', default: false },
    disabled: { type: 'boolean', default: false },
    disabledComment: { name: 'disabled_comment', type: 'varchar', length: 500, nullable: true },
    createdAt: { name: 'created_at', type: 'datetime', precision: 3 },
  },
});
