import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';

/** Stands for a named value while a template's query is built; see `QueryTemplates`. */
export type Slot = (name: string) => never;

const SLOT_PREFIX = '\u0000triad-slot:';

interface Template {
  readonly sql: string;
  /** Per compiled parameter: the slot name it takes its value from, or undefined for a constant. */
  readonly slots: readonly (string | undefined)[];
  readonly constants: readonly unknown[];
}

/**
 * Kysely queries compiled once per shape and run again with new values. Building and compiling
 * a Kysely query costs tens of µs, more than running a short indexed query; a hot read path
 * asks for its query by a `key` naming its shape (which filters are present, how many items an
 * `in` list has) and gets the SQL text of the first build back with the new values bound.
 *
 * `build` receives `slot(name)`, a placeholder to pass wherever a value goes; the SQL text and
 * the parameter order come from Kysely's own compiler, so both dialects stay correct. Every
 * slot of the first build must be given in `values`. Values that are not slots are kept as
 * built. At most `maxTemplates` shapes are kept (least recently used dropped).
 */
export class QueryTemplates<DB> {
  readonly #db: Kysely<DB>;
  readonly #max: number;
  readonly #templates = new Map<string, Template>();

  constructor(db: Kysely<DB>, maxTemplates = 100) {
    this.#db = db;
    this.#max = maxTemplates;
  }

  /** Runs the template `key` (built by `build` the first time) with `values`; returns its rows. */
  async execute<Row>(
    key: string,
    build: (slot: Slot) => Compilable<Row>,
    values: Readonly<Record<string, unknown>>,
  ): Promise<Row[]> {
    const result: QueryResult<Row> = await this.#db.executeQuery(this.compile(key, build, values));
    return result.rows;
  }

  /** The compiled query `execute` would run (for tests and EXPLAIN). */
  compile<Row>(
    key: string,
    build: (slot: Slot) => Compilable<Row>,
    values: Readonly<Record<string, unknown>>,
  ): CompiledQuery<Row> {
    let template = this.#templates.get(key);
    if (template) {
      this.#templates.delete(key);
    } else {
      template = compileTemplate(build);
      const oldest = this.#templates.keys().next();
      if (this.#templates.size >= this.#max && oldest.done !== true) this.#templates.delete(oldest.value);
    }
    this.#templates.set(key, template);
    const parameters = template.slots.map((name, i) => {
      if (name === undefined) return template.constants[i];
      if (!(name in values)) throw new Error(`query template "${key}": no value for slot "${name}"`);
      return values[name];
    });
    return CompiledQuery.raw(template.sql, parameters);
  }
}

function compileTemplate<Row>(build: (slot: Slot) => Compilable<Row>): Template {
  const compiled = build(((name: string) => `${SLOT_PREFIX}${name}`) as Slot).compile();
  const slots = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(SLOT_PREFIX) ? p.slice(SLOT_PREFIX.length) : undefined,
  );
  return { sql: compiled.sql, slots, constants: compiled.parameters };
}
