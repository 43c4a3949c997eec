import { createHash } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { binaryOrder, containsIgnoringCase, isUniqueViolation, startsWith, type Database } from '@triad/db';
import { newestFirst } from '../model/compare-versions.js';
import type {
  NewTemplateRecord,
  RangerFilter,
  TemplateListQuery,
  TemplateRecord,
  TemplateSummaryRecord,
} from '../model/template-record.js';
import type { TemplatesDatabase, TemplatesTable } from './templates-tables.js';

const SUMMARY_COLUMNS = [
  'template_id',
  'template_version',
  'version_rank',
  'description',
  'alias',
  'schema_version',
  'origin',
  'origin_types_json',
  'filter_device_id',
  'filter_vendor_id',
  'filter_description',
  'source_format',
  'source_sha256',
  'created_at',
  'updated_at',
] as const;

type SummaryRow = Pick<Selectable<TemplatesTable>, (typeof SUMMARY_COLUMNS)[number]>;

/** Thrown by `save` in `create` mode when the version is already stored. */
export class TemplateExistsError extends Error {
  constructor(
    readonly templateId: string,
    readonly templateVersion: string,
  ) {
    super(`template ${templateId} ${templateVersion} already exists`);
    this.name = 'TemplateExistsError';
  }
}

/**
 * Kysely queries of the template registry. Every write runs in one transaction that first bumps
 * the templateId's revision (serialising writers of one id) and ends by re-ranking its versions.
 */
export class TemplateRepository {
  readonly #database: Database<TemplatesDatabase>;
  readonly #now: () => Date;

  constructor(database: Database<TemplatesDatabase>, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
  }

  get #db(): Kysely<TemplatesDatabase> {
    return this.#database.db;
  }

  /** Number of stored versions. */
  async count(): Promise<number> {
    const row = await this.#db
      .selectFrom('templates')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** One version with source and document, or undefined. */
  async find(templateId: string, templateVersion: string): Promise<TemplateRecord | undefined> {
    const row = await this.#db
      .selectFrom('templates')
      .select([...SUMMARY_COLUMNS, 'source_text', 'document_json'])
      .where('template_id', '=', templateId)
      .where('template_version', '=', templateVersion)
      .executeTakeFirst();
    if (!row) return undefined;
    return { ...toSummary(row), sourceText: row.source_text, documentJson: row.document_json };
  }

  /** Every version of a templateId, newest first (empty when the id is unknown). */
  async listVersions(templateId: string): Promise<TemplateSummaryRecord[]> {
    const rows = await this.#db
      .selectFrom('templates')
      .select(SUMMARY_COLUMNS)
      .where('template_id', '=', templateId)
      .orderBy('version_rank')
      .execute();
    return rows.map(toSummary);
  }

  /** A page of versions matching the query, ordered by templateId (code point order) then newest first. */
  async list(query: TemplateListQuery): Promise<{ items: TemplateSummaryRecord[]; total: number }> {
    const capabilities = this.#database.capabilities;
    let base = this.#db.selectFrom('templates');
    if (query.prefix) base = base.where(startsWith(sql.ref<string>('templates.template_id'), query.prefix));
    if (query.text) {
      const text = query.text;
      base = base.where((eb) =>
        eb.or([
          containsIgnoringCase(capabilities, sql.ref<string>('templates.template_id'), text),
          containsIgnoringCase(capabilities, sql.ref<string | null>('templates.alias'), text),
          containsIgnoringCase(capabilities, sql.ref<string>('templates.description'), text),
        ]),
      );
    }
    if (query.originType) {
      const originType = query.originType;
      base = base.where((eb) =>
        eb.exists(
          eb
            .selectFrom('template_origin_types as o')
            .select(sql.lit(1).as('one'))
            .whereRef('o.template_id', '=', 'templates.template_id')
            .whereRef('o.template_version', '=', 'templates.template_version')
            .where('o.origin_type', '=', originType),
        ),
      );
    }
    if (query.latestOnly) base = base.where('templates.version_rank', '=', 0);
    const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await base
      .select(SUMMARY_COLUMNS)
      .orderBy(binaryOrder(capabilities, sql.ref<string>('templates.template_id')))
      .orderBy('templates.version_rank')
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { items: rows.map(toSummary), total: Number(totalRow?.n ?? 0) };
  }

  /** Versions that declare at least one match filter, by templateId then newest first. */
  async listWithFilters(): Promise<TemplateSummaryRecord[]> {
    const rows = await this.#db
      .selectFrom('templates')
      .select(SUMMARY_COLUMNS)
      .where((eb) =>
        eb.or([
          eb('filter_device_id', 'is not', null),
          eb('filter_vendor_id', 'is not', null),
          eb('filter_description', 'is not', null),
        ]),
      )
      .orderBy(binaryOrder(this.#database.capabilities, sql.ref<string>('template_id')))
      .orderBy('version_rank')
      .execute();
    return rows.map(toSummary);
  }

  /**
   * Stores a version. `create` refuses an existing version (`TemplateExistsError`); `upsert`
   * replaces it, keeping `createdAt`. Returns the stored summary and whether it was new.
   */
  async save(
    record: NewTemplateRecord,
    mode: 'create' | 'upsert',
  ): Promise<{ created: boolean; summary: TemplateSummaryRecord }> {
    const now = this.#now().toISOString();
    const values = {
      template_id: record.templateId,
      template_version: record.templateVersion,
      description: record.description,
      alias: record.alias,
      schema_version: record.schemaVersion,
      origin: record.origin,
      origin_types_json: JSON.stringify(record.originTypes),
      filter_device_id: record.rangerFilter?.deviceID ?? null,
      filter_vendor_id: record.rangerFilter?.vendorID ?? null,
      filter_description: record.rangerFilter?.description ?? null,
      source_format: record.sourceFormat,
      source_text: record.sourceText,
      source_sha256: createHash('sha256').update(record.sourceText).digest('hex'),
      document_json: record.documentJson,
      updated_at: now,
    };
    try {
      const created = await this.#db.transaction().execute(async (trx) => {
        await lockTemplateId(trx, record.templateId);
        const existing = await trx
          .selectFrom('templates')
          .select('created_at')
          .where('template_id', '=', record.templateId)
          .where('template_version', '=', record.templateVersion)
          .executeTakeFirst();
        if (existing && mode === 'create') throw new TemplateExistsError(record.templateId, record.templateVersion);
        if (existing) {
          await trx
            .updateTable('templates')
            .set(values)
            .where('template_id', '=', record.templateId)
            .where('template_version', '=', record.templateVersion)
            .execute();
          await trx
            .deleteFrom('template_origin_types')
            .where('template_id', '=', record.templateId)
            .where('template_version', '=', record.templateVersion)
            .execute();
        } else {
          await trx
            .insertInto('templates')
            .values({ ...values, version_rank: 0, created_at: now })
            .execute();
        }
        if (record.originTypes.length > 0) {
          await trx
            .insertInto('template_origin_types')
            .values(
              [...new Set(record.originTypes)].map((originType) => ({
                template_id: record.templateId,
                template_version: record.templateVersion,
                origin_type: originType,
              })),
            )
            .execute();
        }
        await rerank(trx, record.templateId);
        return !existing;
      });
      const rows = await this.listVersions(record.templateId);
      const summary = rows.find((r) => r.templateVersion === record.templateVersion);
      if (!summary) throw new Error(`template ${record.templateId} ${record.templateVersion} vanished after saving`);
      return { created, summary };
    } catch (error) {
      // Two creates of one new templateId can race to insert its template_ids row.
      if (mode === 'create' && isUniqueViolation(error))
        throw new TemplateExistsError(record.templateId, record.templateVersion);
      throw error;
    }
  }

  /** Deletes one version; true when it existed. */
  async deleteVersion(templateId: string, templateVersion: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      await lockTemplateId(trx, templateId);
      const result = await trx
        .deleteFrom('templates')
        .where('template_id', '=', templateId)
        .where('template_version', '=', templateVersion)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) {
        await dropIdIfUnused(trx, templateId);
        return false;
      }
      await rerank(trx, templateId);
      await dropIdIfUnused(trx, templateId);
      return true;
    });
  }

  /** Deletes every version of a templateId; returns how many there were. */
  async deleteAllVersions(templateId: string): Promise<number> {
    return this.#db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('templates').where('template_id', '=', templateId).executeTakeFirst();
      await trx.deleteFrom('template_ids').where('template_id', '=', templateId).execute();
      return Number(result.numDeletedRows);
    });
  }
}

/** Bumps the id's revision (creating its row), which holds a row lock until the transaction ends. */
async function lockTemplateId(trx: Transaction<TemplatesDatabase>, templateId: string): Promise<void> {
  await trx
    .insertInto('template_ids')
    .values({ template_id: templateId, revision: 1 })
    .onConflict((oc) => oc.column('template_id').doUpdateSet({ revision: sql<number>`template_ids.revision + 1` }))
    .execute();
}

async function dropIdIfUnused(trx: Transaction<TemplatesDatabase>, templateId: string): Promise<void> {
  await trx
    .deleteFrom('template_ids')
    .where('template_id', '=', templateId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('templates').select(sql.lit(1).as('one')).where('templates.template_id', '=', templateId),
        ),
      ),
    )
    .execute();
}

/** Recomputes `version_rank` of one templateId by SemVer precedence (0 = newest). */
async function rerank(trx: Transaction<TemplatesDatabase>, templateId: string): Promise<void> {
  const rows = await trx
    .selectFrom('templates')
    .select(['template_version', 'version_rank'])
    .where('template_id', '=', templateId)
    .execute();
  const current = new Map(rows.map((r) => [r.template_version, r.version_rank]));
  const ordered = newestFirst(rows.map((r) => r.template_version));
  for (const [rank, version] of ordered.entries()) {
    if (current.get(version) === rank) continue;
    await trx
      .updateTable('templates')
      .set({ version_rank: rank })
      .where('template_id', '=', templateId)
      .where('template_version', '=', version)
      .execute();
  }
}

function toSummary(row: SummaryRow): TemplateSummaryRecord {
  return {
    templateId: row.template_id,
    templateVersion: row.template_version,
    versionRank: Number(row.version_rank),
    description: row.description,
    alias: row.alias,
    schemaVersion: row.schema_version,
    origin: row.origin,
    originTypes: JSON.parse(row.origin_types_json) as string[],
    rangerFilter: toFilter(row),
    sourceFormat: row.source_format,
    sourceSha256: row.source_sha256,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toFilter(row: SummaryRow): RangerFilter | null {
  const filter: { deviceID?: string; vendorID?: string; description?: string } = {};
  if (row.filter_device_id !== null) filter.deviceID = row.filter_device_id;
  if (row.filter_vendor_id !== null) filter.vendorID = row.filter_vendor_id;
  if (row.filter_description !== null) filter.description = row.filter_description;
  return Object.keys(filter).length > 0 ? filter : null;
}
