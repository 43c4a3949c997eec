import type { RecordViolation } from '../model/parse-article-record.js';

/**
 * How large one catalog record may be (docs/content-api.md, "Import limits"). A record over a
 * limit is refused with the element path (BMEcat) or JSON pointer (JSON Lines) and line of what
 * is too large, like any other refused record; the rest of the file is imported. Lengths are in
 * characters (UTF-16 code units, as JavaScript counts them), after surrounding whitespace is
 * trimmed. BMEcat 2005's own maxima are noted where the limit is looser: catalogs in the wild
 * exceed them, and a stored article only needs to stay bounded.
 */
export const RECORD_LIMITS = Object.freeze({
  /** One JSON Lines line (2 Mi characters). */
  recordChars: 2_097_152,
  /**
   * One BMEcat item's text and markup (16 Mi characters): ECLASS "advanced" feature blocks make
   * items of 2.3 million characters in real catalogs (Weidmüller), markup being most of it.
   */
  itemChars: 16_777_216,
  /** Long texts: `DESCRIPTION_LONG`, `REMARKS` (BMEcat: 64,000), and any element the record does not use. */
  longTextChars: 65_536,
  /** Short texts: `DESCRIPTION_SHORT` (BMEcat: 150), names, feature values, media descriptions. */
  shortTextChars: 4_096,
  /** Identifiers and codes: article numbers (BMEcat `SUPPLIER_AID`: 32), keywords, units, languages. */
  idChars: 256,
  /** A media source or its resolved URL (`MIME_SOURCE`; BMEcat: 250). */
  hrefChars: 2_048,
  /** Keywords of one article, all languages together. */
  keywords: 1_000,
  /** Features of one article, all classifications together (a Weidmüller article has 5,740). */
  features: 10_000,
  /** Values of one feature. */
  featureValues: 100,
  /** Media files of one article. */
  media: 200,
  /** Block prices of one article, and its special taxes. */
  prices: 100,
  /** References to other articles. */
  references: 1_000,
  /** Any other list of one article (texts per language, identifiers, statuses, classifications, territories). */
  listItems: 100,
  /**
   * Elements in one BMEcat item: real items with ECLASS advanced features hold 43,000. An element
   * costs the reader about 160 bytes while its item is read, so an item stays under about 32 MB.
   */
  elements: 200_000,
  /** Nesting depth inside one record (BMEcat items nest about 6 deep). */
  depth: 32,
});

export type RecordLimits = typeof RECORD_LIMITS;

/** Elements whose text is an identifier or code: at most `idChars`. */
const ID_ELEMENTS: ReadonlySet<string> = new Set([
  'SUPPLIER_AID',
  'SUPPLIER_PID',
  'SUPPLIER_ALT_AID',
  'SUPPLIER_ALT_PID',
  'MANUFACTURER_AID',
  'MANUFACTURER_PID',
  'BUYER_AID',
  'BUYER_PID',
  'EAN',
  'INTERNATIONAL_PID',
  'ART_ID_TO',
  'PROD_ID_TO',
  'KEYWORD',
  'REFERENCE_FEATURE_SYSTEM_NAME',
  'REFERENCE_FEATURE_GROUP_ID',
  'FUNIT',
  'FORDER',
  'ORDER_UNIT',
  'CONTENT_UNIT',
  'PRICE_CURRENCY',
  'TERRITORY',
  'COUNTRY_OF_ORIGIN',
  'CUSTOMS_NUMBER',
  'MIME_TYPE',
  'MIME_PURPOSE',
  'LOWER_BOUND',
  'PRICE_AMOUNT',
  'TAX',
  'DATE',
  'TIME',
  'TIMEZONE',
]);

/** Elements whose text is a short text: at most `shortTextChars`. */
const SHORT_ELEMENTS: ReadonlySet<string> = new Set([
  'DESCRIPTION_SHORT',
  'MANUFACTURER_NAME',
  'FNAME',
  'FVALUE',
  'MIME_DESCR',
  'MIME_ALT',
  'ARTICLE_STATUS',
  'PRODUCT_STATUS',
  'SPECIAL_TREATMENT_CLASS',
]);

/** The most characters the text of a BMEcat element `name` may hold. */
export function elementTextLimit(name: string, limits: RecordLimits = RECORD_LIMITS): number {
  if (ID_ELEMENTS.has(name)) return limits.idChars;
  if (SHORT_ELEMENTS.has(name)) return limits.shortTextChars;
  if (name === 'MIME_SOURCE') return limits.hrefChars;
  return limits.longTextChars;
}

/** Members whose strings are identifiers or codes. */
const ID_KEYS: ReadonlySet<string> = new Set([
  'supplierArticleId',
  'manufacturerArticleId',
  'supplierAlternativeArticleId',
  'refId',
  'articleReferenceType',
  'currency',
  'orderUnit',
  'contentUnit',
  'providerOrderUnit',
  'providerContentUnit',
  'countryOfOrigin',
  'customsTariffNumber',
  'systemName',
  'groupId',
  'taxType',
  'lang',
  'mimeType',
  'purpose',
  'unit',
  'type',
  'validFrom',
  'validUntil',
  'territories',
]);

/** Lists with a count of their own; other lists have `listItems`. */
const LIST_LIMITS: Readonly<Record<string, keyof RecordLimits>> = {
  images: 'media',
  blockPrices: 'prices',
  specialTaxes: 'prices',
  references: 'references',
  values: 'featureValues',
  features: 'features',
};

/** Records their reader made within every limit of `RECORD_LIMITS` (`markWithinLimits`), held weakly. */
const WITHIN_LIMITS = new WeakSet<object>();

/**
 * Notes that `record` is within every limit of `RECORD_LIMITS`, as its reader made sure while
 * reading it (`ItemBuilder`: short texts and attributes, few elements): `checkRecordLimits` then
 * answers without walking it (the walk was 2.5 µs of a BMEcat article's ~50 on a parse worker).
 * The record must not change afterwards.
 */
export function markWithinLimits(record: object): void {
  WITHIN_LIMITS.add(record);
}

/**
 * Checks the sizes of one record of our JSON Lines shape (also what BMEcat items are mapped to)
 * against `limits`: every string by the member holding it, every list's length, the keywords and
 * features of the whole record, the nesting depth. Returns the violations (JSON pointers), at most
 * one per list or string. A record marked `markWithinLimits` has none and is not walked.
 */
export function checkRecordLimits(record: unknown, limits: RecordLimits = RECORD_LIMITS): RecordViolation[] {
  if (limits === RECORD_LIMITS && typeof record === 'object' && record !== null && WITHIN_LIMITS.has(record)) return [];
  const walker = new LimitWalk(limits);
  walker.walk(record, '', '', 0);
  const { violations, keywords, features } = walker;
  if (keywords > limits.keywords)
    violations.push({
      path: '/keywords',
      message: `${keywords} keywords: at most ${limits.keywords} are imported per article`,
    });
  if (features > limits.features)
    violations.push({
      path: '/classifications',
      message: `${features} features: at most ${limits.features} are imported per article`,
    });
  return violations;
}

/**
 * One record's walk. Every record of an import is walked: the JSON pointer of a value is held as
 * its steps and joined only for a violation (profiled: building it for every value cost more than
 * the checks).
 */
class LimitWalk {
  readonly violations: RecordViolation[] = [];
  keywords = 0;
  features = 0;
  readonly #limits: RecordLimits;
  readonly #steps: (string | number)[] = [];

  /** The smallest string limit. */
  readonly #shortest: number;

  constructor(limits: RecordLimits) {
    this.#limits = limits;
    this.#shortest = Math.min(limits.idChars, limits.hrefChars, limits.shortTextChars, limits.longTextChars);
  }

  #fail(message: string): void {
    this.violations.push({ path: this.#steps.map((step) => `/${step}`).join(''), message });
  }

  walk(value: unknown, key: string, parentKey: string, depth: number): void {
    const limits = this.#limits;
    if (typeof value === 'string') {
      // Most strings are shorter than every string limit: their member's limit is not looked up.
      if (value.length <= this.#shortest) return;
      const max = stringLimit(key, parentKey, limits);
      if (value.length > max)
        this.#fail(
          `${value.length} characters: at most ${max} are imported here (docs/content-api.md, "Import limits")`,
        );
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (depth >= limits.depth) {
      this.#fail(`nested deeper than ${limits.depth} levels`);
      return;
    }
    const steps = this.#steps;
    if (Array.isArray(value)) {
      let limit: number;
      if (key === 'values' && parentKey === 'keywords') {
        this.keywords += value.length;
        limit = Infinity; // counted over the whole record by the caller
      } else {
        if (key === 'features') this.features += value.length;
        const counted = LIST_LIMITS[key];
        limit = counted === undefined ? limits.listItems : limits[counted];
      }
      if (value.length > limit) {
        this.#fail(`${value.length} entries: at most ${limit} are imported here`);
        return;
      }
      // Items of a list keep the list's name for their strings (`territories`, `hrefs`).
      for (let i = 0; i < value.length; i += 1) {
        steps.push(i);
        this.walk(value[i], key, parentKey, depth + 1);
        steps.pop();
      }
      return;
    }
    // `for...in` rather than `Object.entries`: no array per object (records are plain objects, whose
    // prototype has no enumerable members).
    const record = value as Record<string, unknown>;
    for (const member in record) {
      steps.push(member);
      this.walk(record[member], member, key, depth + 1);
      steps.pop();
    }
  }
}

/** The longest string member `key` (inside member or list `parentKey`) may hold. */
function stringLimit(key: string, parentKey: string, limits: RecordLimits): number {
  if (ID_KEYS.has(key)) return limits.idChars;
  if (key === 'href' || parentKey === 'hrefs') return limits.hrefChars;
  if (key === 'values' && parentKey === 'keywords') return limits.idChars;
  if (key === 'value') {
    if (parentKey === 'descriptionsLong' || parentKey === 'remarks') return limits.longTextChars;
    if (parentKey === 'buyerArticleIds' || parentKey === 'internationalArticleIds') return limits.idChars;
  }
  return limits.shortTextChars;
}
