import type { ImportWarning } from '../model/import-run.js';
import type { XmlNode } from './bmecat-node.js';
import type { BmecatTransaction } from './bmecat-transaction.js';

/**
 * Which elements of a BMEcat file Triad keeps, as trees of element names, and a count of every
 * element it does not keep (decision 0034): nothing of a file is dropped without a word. A
 * `Kept` maps a child's name to what of that child is kept; `{}` keeps the element's text and
 * none of its children. `USER_DEFINED_EXTENSIONS` is never kept: its children (`UDX.*`, the
 * supplier's own elements) are counted each by its name, whatever they hold.
 *
 * Keep these tables in step with the reader (`bmecat-item.ts`, `bmecat-prices.ts`,
 * `bmecat-features.ts`, `bmecat-media.ts`, and `bmecat-reader.ts` for the header): an element
 * the reader starts to read goes in here, in both its 1.2 and its 2005 name.
 */
export interface Kept {
  readonly [child: string]: Kept;
}

const TEXT: Kept = Object.freeze({});

/** `DATETIME` with its date, time and zone (price validity). */
const DATETIME: Kept = { DATE: TEXT, TIME: TEXT, TIMEZONE: TEXT };

const DETAILS: Kept = {
  DESCRIPTION_SHORT: TEXT,
  DESCRIPTION_LONG: TEXT,
  KEYWORD: TEXT,
  EAN: TEXT,
  INTERNATIONAL_PID: TEXT,
  MANUFACTURER_NAME: TEXT,
  MANUFACTURER_AID: TEXT,
  MANUFACTURER_PID: TEXT,
  DELIVERY_TIME: TEXT,
  SUPPLIER_ALT_AID: TEXT,
  SUPPLIER_ALT_PID: TEXT,
  BUYER_AID: TEXT,
  BUYER_PID: TEXT,
  ARTICLE_STATUS: TEXT,
  PRODUCT_STATUS: TEXT,
  SPECIAL_TREATMENT_CLASS: TEXT,
  REMARKS: TEXT,
};

const ORDER_DETAILS: Kept = {
  ORDER_UNIT: TEXT,
  CONTENT_UNIT: TEXT,
  NO_CU_PER_OU: TEXT,
  QUANTITY_MIN: TEXT,
  QUANTITY_INTERVAL: TEXT,
  PRICE_QUANTITY: TEXT,
};

const PRICE: Kept = {
  PRICE_AMOUNT: TEXT,
  PRICE_CURRENCY: TEXT,
  TAX: TEXT,
  TAX_DETAILS: { TAX: TEXT, TAX_TYPE: TEXT, TAX_CATEGORY: TEXT },
  PRICE_FACTOR: TEXT,
  LOWER_BOUND: TEXT,
  TERRITORY: TEXT,
};

const PRICE_DETAILS: Kept = { ARTICLE_PRICE: PRICE, PRODUCT_PRICE: PRICE, DATETIME };

const FEATURE: Kept = {
  FNAME: TEXT,
  FVALUE: TEXT,
  FUNIT: TEXT,
  FORDER: TEXT,
  // ECLASS "advanced" features: the name in the template (or defined for FT_IDREF), the value by
  // its id, its FVALUE_DETAILS the value when the file defines no name for the id.
  FTEMPLATE: { FT_ID: TEXT, FT_NAME: TEXT, FT_UNIT: TEXT },
  FT_IDREF: TEXT,
  VALUE_IDREF: TEXT,
  FVALUE_DETAILS: TEXT,
};

const FEATURES: Kept = {
  REFERENCE_FEATURE_SYSTEM_NAME: TEXT,
  REFERENCE_FEATURE_GROUP_ID: TEXT,
  REFERENCE_FEATURE_GROUP_NAME: TEXT,
  REFERENCE_FEATURE_GROUP_ID2: TEXT,
  FEATURE,
  FEATURE_GROUP: {
    REFERENCE_FEATURE_GROUP_ID: TEXT,
    REFERENCE_FEATURE_GROUP_NAME: TEXT,
    REFERENCE_FEATURE_GROUP_ID2: TEXT,
    FEATURE,
  },
};

const MIME_INFO: Kept = {
  MIME: { MIME_TYPE: TEXT, MIME_SOURCE: TEXT, MIME_PURPOSE: TEXT, MIME_DESCR: TEXT, MIME_ALT: TEXT },
};

const REFERENCE: Kept = { ART_ID_TO: TEXT, PROD_ID_TO: TEXT };

/** What the reader keeps of an item (`ARTICLE` in BMEcat 1.2, `PRODUCT` in 2005), by the names of both versions. */
export const KEPT_ITEM: Kept = {
  SUPPLIER_AID: TEXT,
  SUPPLIER_PID: TEXT,
  ARTICLE_DETAILS: DETAILS,
  PRODUCT_DETAILS: DETAILS,
  ARTICLE_ORDER_DETAILS: ORDER_DETAILS,
  PRODUCT_ORDER_DETAILS: ORDER_DETAILS,
  ARTICLE_PRICE_DETAILS: PRICE_DETAILS,
  PRODUCT_PRICE_DETAILS: PRICE_DETAILS,
  ARTICLE_FEATURES: FEATURES,
  PRODUCT_FEATURES: FEATURES,
  MIME_INFO,
  PRODUCT_LOGISTIC_DETAILS: {
    COUNTRY_OF_ORIGIN: TEXT,
    CUSTOMS_TARIFF_NUMBER: { CUSTOMS_NUMBER: TEXT },
    PRODUCT_DIMENSIONS: { WEIGHT: TEXT },
  },
  ARTICLE_REFERENCE: REFERENCE,
  PRODUCT_REFERENCE: REFERENCE,
};

/** What a price update (`T_UPDATE_PRICES`) keeps of an item: its id and its prices. */
export const KEPT_PRICE_ITEM: Kept = {
  SUPPLIER_AID: TEXT,
  SUPPLIER_PID: TEXT,
  ARTICLE_PRICE_DETAILS: PRICE_DETAILS,
  PRODUCT_PRICE_DETAILS: PRICE_DETAILS,
};

const TEMPLATE: Kept = { FT_ID: TEXT, FT_NAME: TEXT, FT_UNIT: TEXT };

/**
 * The names of groups, feature templates and values the items refer to by id, wherever a
 * transaction defines them (`bmecat-feature-definitions.ts` reads them around the items):
 * BMEcat 2005's `CLASSIFICATION_SYSTEM`, BMEcat 1.2's `FEATURE_SYSTEM`.
 */
const DEFINITIONS: Kept = {
  CLASSIFICATION_SYSTEM: {
    CLASSIFICATION_SYSTEM_NAME: TEXT,
    CLASSIFICATION_GROUPS: {
      CLASSIFICATION_GROUP: { CLASSIFICATION_GROUP_ID: TEXT, CLASSIFICATION_GROUP_NAME: TEXT },
    },
    ALLOWED_VALUES: { ALLOWED_VALUE: { ALLOWED_VALUE_ID: TEXT, ALLOWED_VALUE_NAME: TEXT } },
    CLASSIFICATION_SYSTEM_FEATURE_TEMPLATES: { FEATURE_TEMPLATE: TEMPLATE },
  },
  FEATURE_SYSTEM: {
    FEATURE_SYSTEM_NAME: TEXT,
    FEATURE_GROUP: { FEATURE_GROUP_ID: TEXT, FEATURE_GROUP_NAME: TEXT, FEATURE_TEMPLATE: TEMPLATE },
  },
};

/**
 * What the reader keeps around the items, from the root: the header's default language,
 * currency and media root, which catalog the file is and who sent it (`bmecat-header-fields.ts`),
 * and the transaction element (its items are counted by `KEPT_ITEM`).
 */
export const KEPT_DOCUMENT: Kept = {
  BMECAT: {
    HEADER: {
      GENERATOR_INFO: TEXT,
      CATALOG: {
        LANGUAGE: TEXT,
        CURRENCY: TEXT,
        MIME_ROOT: TEXT,
        CATALOG_ID: TEXT,
        CATALOG_VERSION: TEXT,
        CATALOG_NAME: TEXT,
        GENERATION_DATE: TEXT,
        DATETIME,
      },
      SUPPLIER: { SUPPLIER_ID: TEXT, SUPPLIER_NAME: TEXT },
      BUYER: { BUYER_NAME: TEXT },
    },
    T_NEW_CATALOG: DEFINITIONS,
    T_UPDATE_PRODUCTS: DEFINITIONS,
    T_UPDATE_PRICES: {},
    T_NEW_PRODUCTDATA: DEFINITIONS,
  },
};

/** Where extensions live; its children are counted one by one. */
const EXTENSIONS = 'USER_DEFINED_EXTENSIONS';

/** The warning kind of elements Triad does not keep. */
export const UNKEPT_ELEMENT = 'unkept-element';

/** The warning kind of a root element that is BMEcat's in another case (`BMEcat`). */
export const MISNAMED_ROOT = 'misnamed-root';

/** `SEGMENT: 3 elements not imported (Triad does not keep this element)`; extensions say so. */
export function unkeptMessage(path: string, count: number): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const times = count === 1 ? 'once' : `${count} times`;
  return path.includes(`${EXTENSIONS}/`)
    ? `${name} (a user-defined extension, ${times}) is not imported: Triad reads no UDX elements`
    : `${name} (${times}) is not imported: Triad does not keep this element`;
}

/** Elements of one path a file holds and Triad does not keep: how many, and the line of the first. */
export interface UnkeptElement {
  /** Element path: from the item (`ARTICLE/ARTICLE_DETAILS/SEGMENT`) or below the root (`HEADER/CATALOG/TERRITORY`). */
  readonly path: string;
  readonly count: number;
  /** 1-based line of the first one's start tag. */
  readonly line: number;
  /**
   * Only in what a piece read on a worker lists: the element (`path` is its name) opened this
   * many levels below where the piece began (0 or less); `merge` counts it when that is a child
   * of the transaction element.
   */
  readonly depth?: number;
}

/**
 * Counts the elements of one file that Triad does not keep, per path, across the file (and,
 * merged, across the pieces read on several threads). Only the outermost element not kept is
 * counted; what it holds goes with it.
 */
export class UnkeptElements {
  readonly #byPath = new Map<string, { count: number; line: number; depth?: number }>();
  /** The root element when it is `BMECAT` in another case, and its line. */
  #misnamedRoot: { readonly name: string; readonly line: number } | undefined;
  /** Outer elements opened minus closed, counted from where a piece began (`outerOpen`). */
  #relative = 0;
  /** Levels below the transaction element where reading began; undefined for a worker's piece. */
  #start: number | undefined;
  /** The transaction the items belong to (a price update keeps less of them). */
  transaction: BmecatTransaction | undefined;
  /** The item element of the file (`ARTICLE`: BMEcat 1.2, `PRODUCT`: 2005), once one was read. */
  itemName: string | undefined;

  constructor(transaction?: BmecatTransaction) {
    this.transaction = transaction;
  }

  /** Counts one element at `path`, first seen at `line`. */
  add(path: string, line: number, count = 1): void {
    const entry = this.#byPath.get(path);
    if (entry === undefined) this.#byPath.set(path, { count, line });
    else {
      entry.count += count;
      if (line < entry.line) entry.line = line;
    }
  }

  /** Counts an element opened outside items in a piece, `depth` levels below the piece's start. */
  #addAt(name: string, line: number, depth: number): void {
    const key = `${depth} ${name}`;
    const entry = this.#byPath.get(key);
    if (entry === undefined) this.#byPath.set(key, { count: 1, line, depth });
    else entry.count += 1;
  }

  /** Adds what another counter listed (a piece read elsewhere), its lines `lineBase` further down. */
  merge(elements: readonly UnkeptElement[], lineBase = 0, start = 0): void {
    for (const e of elements) {
      if (e.depth === undefined) this.add(e.path, e.line + lineBase, e.count);
      else if (start + e.depth === 0)
        this.add(`${this.transaction ?? 'T_NEW_CATALOG'}/${e.path}`, e.line + lineBase, e.count);
    }
  }

  /**
   * Reading goes on in a part of the document that starts `start` levels below the transaction
   * element (0: where the items are); outer elements are counted from there (`outerOpen`).
   */
  readFrom(start: number): void {
    this.#start = start;
    this.#relative = 0;
  }

  /**
   * An element outside the items was opened: `path` holds the names open from the root
   * (`BMECAT` ...), or, in a piece, from where the piece began. Only the outermost element not
   * kept is counted. In a piece only the children of the transaction element can be (nothing else
   * is kept there); a worker's piece does not know its depth and lists them with theirs.
   */
  outerOpen(path: readonly string[], line: number): void {
    if (path[0] === 'BMECAT') return this.countOuter(path, line);
    const depth = this.#relative;
    this.#relative += 1;
    if (depth > 0) return; // inside an element opened in this piece: not a child of the transaction
    const name = path[path.length - 1] ?? '';
    if (this.#start === undefined) this.#addAt(name, line, depth);
    else if (this.#start + depth === 0) this.add(`${this.transaction ?? 'T_NEW_CATALOG'}/${name}`, line);
  }

  /** The root element is `name`, BMEcat's `BMECAT` in another case: read as `BMECAT`, and said so. */
  misnamedRoot(name: string, line: number): void {
    this.#misnamedRoot = { name, line };
  }

  /** An element outside the items was closed (`outerOpen`). */
  outerClose(): void {
    this.#relative -= 1;
  }

  /** Everything counted, in the order of the first line. */
  list(): UnkeptElement[] {
    return [...this.#byPath]
      .map(([key, { count, line, depth }]) =>
        depth === undefined
          ? { path: key, count, line }
          : { path: key.slice(key.indexOf(' ') + 1), count, line, depth },
      )
      .sort((a, b) => a.line - b.line || a.path.localeCompare(b.path));
  }

  /** Everything counted as the import's warnings (`unkept-element`), in the order of the first line. */
  warnings(): ImportWarning[] {
    const unkept: ImportWarning[] = this.list().map(({ path, count, line }) => ({
      kind: UNKEPT_ELEMENT,
      path,
      count,
      line,
      message: unkeptMessage(path, count),
    }));
    const root = this.#misnamedRoot;
    if (root === undefined) return unkept;
    const message =
      `the root element is written ${root.name}; BMEcat names it BMECAT (upper case): ` +
      'the file was read as BMECAT; write <BMECAT> and </BMECAT>';
    return [{ kind: MISNAMED_ROOT, path: root.name, count: 1, line: root.line, message }, ...unkept];
  }

  /** Whether nothing was counted. */
  get empty(): boolean {
    return this.#byPath.size === 0 && this.#misnamedRoot === undefined;
  }

  /**
   * Counts what an item's subtree holds that Triad does not keep. An item that is deleted
   * (`mode="delete"`) needs only its id: the rest is not counted.
   */
  countItem(item: XmlNode): void {
    this.itemName ??= item.name;
    if (item.attributes.mode === 'delete') return;
    this.#walk(item, this.transaction === 'T_UPDATE_PRICES' ? KEPT_PRICE_ITEM : KEPT_ITEM, [item.name]);
  }

  /** `names`: the path to `node`, joined only when something is counted (every item is walked). */
  #walk(node: XmlNode, kept: Kept, names: string[]): void {
    for (const child of node.children) {
      const next = kept[child.name];
      if (next !== undefined) {
        // Most kept elements are leaves: no walk below them.
        if (child.children.length === 0) continue;
        names.push(child.name);
        this.#walk(child, next, names);
        names.pop();
      } else if (child.name === EXTENSIONS && child.children.length > 0) {
        const path = names.join('/');
        for (const extension of child.children) this.add(`${path}/${EXTENSIONS}/${extension.name}`, extension.line);
      } else this.add(`${names.join('/')}/${child.name}`, child.line);
    }
  }

  /**
   * Counts an element outside the items when it is the outermost one not kept. `path` holds the
   * names from the root (`BMECAT`, `HEADER` ...); its last name is the element's.
   */
  countOuter(path: readonly string[], line: number): void {
    const names = path.slice(1);
    let kept: Kept = KEPT_DOCUMENT.BMECAT ?? TEXT;
    const last = names.length - 1;
    for (const [i, name] of names.entries()) {
      const next = kept[name];
      if (next !== undefined) {
        kept = next;
        continue;
      }
      // The element itself, or an extension's child; anything deeper went with the one counted.
      if (i === last ? name !== EXTENSIONS : i === last - 1 && name === EXTENSIONS) this.add(names.join('/'), line);
      return;
    }
  }
}
