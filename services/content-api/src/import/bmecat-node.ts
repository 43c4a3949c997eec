import type { LanguageCode } from '../model/article.js';
import { parseDecimalString, type Decimal } from '../model/decimal.js';
import { apiLanguage } from './language-codes.js';

/** An element of one item's subtree. */
export interface XmlNode {
  readonly name: string;
  /** Line of the start tag. */
  readonly line: number;
  readonly attributes: Readonly<Record<string, string>>;
  /** `NO_CHILDREN` until the first child: most elements are leaves, and each empty array is garbage. */
  children: readonly XmlNode[];
  text: string;
}

export const NO_CHILDREN: readonly XmlNode[] = Object.freeze([]);

/**
 * Something of one item the reader kept in another form than the file gave it, or did not keep,
 * for the import's warnings (`kind`: stable words). `path` is the element path from the item
 * (`ARTICLE/ARTICLE_DETAILS/EAN`); `linesBelow` the element's line counted from the item's start
 * tag (a piece read on a worker does not know the file's line).
 */
export interface ItemWarning {
  readonly kind: string;
  readonly path: string;
  readonly linesBelow: number;
  readonly message: string;
}

/** The warning kind of a single-valued element given more than once in one parent (the first is kept). */
export const REPEATED_ELEMENT = 'repeated-element';

/** Where the reader of one item notes its warnings: the item element (for lines) and the list. */
export interface ItemNotes {
  readonly item: XmlNode;
  readonly warnings: ItemWarning[];
}

/**
 * `first` when there is one, else `node`: a single-valued element given again in the same parent
 * (`parentPath`, from the item) is noted as a `repeated-element` warning and not read.
 */
export function once(first: XmlNode | undefined, node: XmlNode, parentPath: string, notes: ItemNotes): XmlNode {
  if (first === undefined) return node;
  repeated(node, parentPath, notes);
  return first;
}

/** Notes `node` as given again in its parent, where BMEcat allows one (per language, for texts with `lang`). */
export function repeated(node: XmlNode, parentPath: string, notes: ItemNotes): void {
  const parent = parentPath.slice(parentPath.lastIndexOf('/') + 1);
  const per = node.attributes.lang === undefined ? '' : ` in the same language (${node.attributes.lang})`;
  notes.warnings.push({
    kind: REPEATED_ELEMENT,
    path: `${parentPath}/${node.name}`,
    linesBelow: node.line - notes.item.line,
    message:
      `${node.name} is given more than once${per} in one ${parent}, where BMEcat allows one: ` +
      'the first is imported, the others are not',
  });
}

/** The trimmed text of `node`; undefined without one. */
export const text = (node: XmlNode | undefined): string | undefined => node?.text.trim();
/** The API language of a BMEcat `lang` code, `fallback` when absent. */
export const language = (code: string | undefined, fallback: LanguageCode): LanguageCode =>
  code === undefined || code === '' ? fallback : apiLanguage(code);

/** Adds the non-empty texts of `node` to `out`, labelled with its `lang` (or `fallback`). */
export function addLabelled(out: { lang: LanguageCode; value: string }[], node: XmlNode, fallback: LanguageCode): void {
  const value = node.text.trim();
  if (value !== '') out.push({ lang: language(node.attributes.lang, fallback), value });
}

/** Adds `{type, value}` of an element with a `type` attribute, when it has text. */
export function addTyped(out: { type: string; value: string }[], node: XmlNode): void {
  const value = node.text.trim();
  if (value !== '') out.push({ type: node.attributes.type ?? '', value });
}

export function integer(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+(\.0+)?$/.test(text)) return undefined;
  return Number.parseInt(text, 10);
}

export function decimalOf(text: string | undefined): Decimal | undefined {
  return text === undefined ? undefined : parseDecimalString(text);
}

/** `0.19` is a factor; a value above 1 (`19`, seen in the wild) is read as a percentage. */
export function taxOf(text: string | undefined): Decimal | undefined {
  const d = decimalOf(text);
  if (!d) return undefined;
  return d.value / 10 ** d.decimalDigits > 1 ? { value: d.value, decimalDigits: d.decimalDigits + 2 } : d;
}
