import { isObject, randomInt, randomItem, seededRandom, type RandomSource } from '@triad/common';

/**
 * The seeded mutation generator of the differential check against the published NetinDS schema
 * (docs/decisions/0021-published-schema-fidelity.md). Each mutation is one or two small edits
 * of a valid fixture at a random place: a key removed or added, a value replaced by another type,
 * an array emptied, a string stretched past its limit, a block copied from elsewhere. The same
 * fixtures, count and seed give the same mutations, ids included, on every platform.
 */

/** One mutated document and the id that names it in the committed verdicts. */
export interface Mutation {
  readonly id: string;
  readonly document: unknown;
}

/** A valid template to mutate, by a short stable name. */
export interface Fixture {
  readonly name: string;
  readonly value: unknown;
}

type Path = readonly (string | number)[];
type Container = Record<string, unknown> | unknown[];

const DATAPOINT_BLOCKS = [
  'commonConfig',
  'addressConfig',
  'calcConfig',
  'convConfig',
  'defaultValueConfig',
  'alertConfig',
  'rowFilterConfig',
  'unitsConfig',
  'valueMapConfig',
  'defaultValueConfig, addressConfig',
];

const UNKNOWN_KEYS = ['extra', 'qos', 'color', 'note', 'additionalProperties', '$schema', 'id', 'units', 'format'];

/** Values a mutation may write, by kind; chosen to cross type, length and enum limits. */
const REPLACEMENTS: readonly (() => unknown)[] = [
  () => null,
  () => true,
  () => 0,
  () => -1,
  () => 2,
  () => 1.5,
  () => 9,
  () => 201,
  () => 1001,
  () => '',
  () => 'x',
  () => '1.0.0',
  () => '#TIMEPOINT',
  () => 'gauge',
  () => 'x'.repeat(81),
  () => 'x'.repeat(801),
  () => [],
  () => [{}],
  () => ({}),
  () => ({ topic: 't', extra: 1 }),
  () => ({ datapoint: 'a', units: 5 }),
  () => ({ expression: 'datapoint.value' }),
  () => ({ isDefault: true, value: 1 }),
];

/** Every path in `value` (objects and arrays included), root first, in document order. */
function paths(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((item, index) => out.push(...paths(item, [...prefix, index])));
  else if (isObject(value))
    for (const [key, child] of Object.entries(value)) out.push(...paths(child, [...prefix, key]));
  return out;
}

function get(root: unknown, path: Path): unknown {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isObject(node) && typeof segment === 'string') node = node[segment];
    else return undefined;
  }
  return node;
}

function containerOf(node: unknown): Container | undefined {
  return Array.isArray(node) || isObject(node) ? node : undefined;
}

/** One edit at a random place; returns a short description of it, or undefined when it did nothing. */
function editOnce(doc: unknown, random: RandomSource): string | undefined {
  const all = paths(doc);
  const path = randomItem(random, all);
  const where = '/' + path.join('/');
  const node = get(doc, path);
  const parent = containerOf(get(doc, path.slice(0, -1)));
  const last = path[path.length - 1];
  switch (randomInt(random, 8)) {
    case 0: {
      if (parent === undefined || last === undefined) return undefined;
      if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
      else if (!Array.isArray(parent) && typeof last === 'string') delete parent[last];
      return `delete ${where}`;
    }
    case 1: {
      if (!isObject(node)) return undefined;
      const key = randomItem(random, UNKNOWN_KEYS);
      node[key] = random() < 0.5 ? 'x' : {};
      return `add ${key} at ${where}`;
    }
    case 2:
    case 3: {
      if (parent === undefined || last === undefined) return undefined;
      const value = randomItem(random, REPLACEMENTS)();
      if (Array.isArray(parent) && typeof last === 'number') parent[last] = value;
      else if (!Array.isArray(parent) && typeof last === 'string') parent[last] = value;
      return `replace ${where}`;
    }
    case 4: {
      if (!Array.isArray(node)) return undefined;
      if (random() < 0.5) node.length = 0;
      else if (node.length > 0) node.push(structuredClone(node[randomInt(random, node.length)]));
      return `resize ${where}`;
    }
    case 5: {
      if (typeof node !== 'string' || parent === undefined || last === undefined) return undefined;
      const value = node.repeat(Math.max(2, Math.ceil(90 / Math.max(1, node.length))));
      if (Array.isArray(parent) && typeof last === 'number') parent[last] = value;
      else if (!Array.isArray(parent) && typeof last === 'string') parent[last] = value;
      return `stretch ${where}`;
    }
    case 6: {
      // Datapoint blocks: add or remove one, the combination rules' territory.
      if (!isObject(node) || !isObject(node['commonConfig']) || Array.isArray(node)) return undefined;
      const block = randomItem(random, DATAPOINT_BLOCKS);
      if (block in node) delete node[block];
      else node[block] = block === 'calcConfig' ? { expression: 'datapoint.rawValue' } : {};
      return `toggle ${block} at ${where}`;
    }
    default: {
      // Copy another object of the document here (a widget's settings onto another, and so on).
      if (parent === undefined || last === undefined || !isObject(node)) return undefined;
      const others = all.filter((other) => isObject(get(doc, other)) && other.length > 0);
      const value = structuredClone(get(doc, randomItem(random, others)));
      if (Array.isArray(parent) && typeof last === 'number') parent[last] = value;
      else if (!Array.isArray(parent) && typeof last === 'string') parent[last] = value;
      return `copy onto ${where}`;
    }
  }
}

/**
 * `perFixture` mutations of each fixture, drawn from `seed`. Ids read `<fixture>#<n>`; the
 * mutation at an id depends only on the fixture, the seed and n.
 */
export function mutateFixtures(fixtures: readonly Fixture[], perFixture: number, seed: number): Mutation[] {
  const out: Mutation[] = [];
  for (const fixture of fixtures) {
    for (let n = 0; n < perFixture; n++) {
      const random = seededRandom(seed ^ hash(`${fixture.name}#${n}`));
      const document: unknown = structuredClone(fixture.value);
      const edits = 1 + (random() < 0.3 ? 1 : 0);
      let done = 0;
      for (let attempt = 0; done < edits && attempt < 20; attempt++) {
        if (editOnce(document, random) !== undefined) done++;
      }
      out.push({ id: `${fixture.name}#${n}`, document });
    }
  }
  return out;
}

/** FNV-1a over UTF-16 code units: a stable 32-bit seed per id. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
