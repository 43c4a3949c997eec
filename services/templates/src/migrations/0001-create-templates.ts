import type { AnyTables } from '@triad/db';
import type { Kysely, Migration } from 'kysely';

// A migration sees the database as it was at its point in history, not today's table types (Kysely convention).
type AnyDb = Kysely<AnyTables>;

/**
 * Creates the registry tables:
 * - `template_ids`: one row per templateId; writers bump `revision` first, which takes a row lock
 *   on PostgreSQL so concurrent writes to one id queue up (SQLite has one writer anyway);
 * - `templates`: one row per (templateId, templateVersion) with the source text, the parsed
 *   document as JSON text, `version_rank` (0 = newest version of its id) and the match filters;
 * - `template_origin_types`: the originTypes a version uses, for filtering.
 */
export const createTemplates: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('template_ids')
      .addColumn('template_id', 'text', (c) => c.primaryKey())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('templates')
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('template_version', 'text', (c) => c.notNull())
      .addColumn('version_rank', 'integer', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('alias', 'text')
      .addColumn('schema_version', 'text')
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('origin_types_json', 'text', (c) => c.notNull())
      .addColumn('filter_device_id', 'text')
      .addColumn('filter_vendor_id', 'text')
      .addColumn('filter_description', 'text')
      .addColumn('source_format', 'text', (c) => c.notNull())
      .addColumn('source_text', 'text', (c) => c.notNull())
      .addColumn('source_sha256', 'text', (c) => c.notNull())
      .addColumn('document_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('templates_pk', ['template_id', 'template_version'])
      .addForeignKeyConstraint('templates_template_id_fk', ['template_id'], 'template_ids', ['template_id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createIndex('templates_rank_idx')
      .on('templates')
      .columns(['version_rank', 'template_id'])
      .execute();
    await db.schema
      .createTable('template_origin_types')
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('template_version', 'text', (c) => c.notNull())
      .addColumn('origin_type', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('template_origin_types_pk', ['template_id', 'template_version', 'origin_type'])
      .addForeignKeyConstraint(
        'template_origin_types_template_fk',
        ['template_id', 'template_version'],
        'templates',
        ['template_id', 'template_version'],
        (fk) => fk.onDelete('cascade'),
      )
      .execute();
    await db.schema
      .createIndex('template_origin_types_type_idx')
      .on('template_origin_types')
      .column('origin_type')
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropTable('template_origin_types').execute();
    await db.schema.dropTable('templates').execute();
    await db.schema.dropTable('template_ids').execute();
  },
};
