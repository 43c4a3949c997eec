import type { LanguageCode } from '../model/article.js';
import { NO_CLASSIFICATION_SYSTEM, normalizeGroupId, normalizeSystemName } from '../model/classification-system.js';
import { groupKey, pickName, type DefinedNames, type FeatureDefinitions } from './bmecat-feature-definitions.js';
import { integer, language, NO_CHILDREN, text, type ItemWarning, type XmlNode } from './bmecat-node.js';

/**
 * Something of an item's features the reader kept in another form than the file gave it, for the
 * import's warnings: a feature or value referred to by an id the file does not define, kept as
 * the id, or a feature without a name.
 */
export interface FeatureWarning extends ItemWarning {
  readonly kind: 'feature-name-unresolved' | 'feature-value-unresolved' | 'feature-without-name';
}

/** What reading the features of one item needs besides the elements. */
export interface FeatureContext {
  /** The catalog's default language. */
  readonly lang: LanguageCode;
  readonly definitions: FeatureDefinitions | undefined;
  /** The item element (for paths and lines of warnings). */
  readonly item: XmlNode;
  readonly warnings: ItemWarning[];
}

/**
 * The classifications of one `ARTICLE_FEATURES` / `PRODUCT_FEATURES` block, added to `out`: the
 * block's own (its `REFERENCE_FEATURE_SYSTEM_NAME` normalised, `none` without one; its
 * `REFERENCE_FEATURE_GROUP_ID`, else the id the catalog defines for its
 * `REFERENCE_FEATURE_GROUP_NAME`, else that name, else `none`), then one per `FEATURE_GROUP`
 * inside it (2005), in the block's system. A block with neither a system, a group nor a feature
 * adds nothing.
 */
export function classificationsOf(block: XmlNode, context: FeatureContext, out: Record<string, unknown>[]): void {
  const path = `${context.item.name}/${block.name}`;
  const own = classificationOf(block, undefined, path, context);
  if (own.classification) out.push(own.classification);
  for (const group of own.groups) {
    const nested = classificationOf(group, own.system, `${path}/FEATURE_GROUP`, context);
    if (nested.classification) out.push(nested.classification);
  }
}

/** One block's or `FEATURE_GROUP`'s classification (`system` given for a group: its block's) and its feature groups. */
function classificationOf(
  block: XmlNode,
  inSystem: string | undefined,
  path: string,
  context: FeatureContext,
): { classification: Record<string, unknown> | undefined; system: string; groups: XmlNode[] } {
  let systemName: XmlNode | undefined;
  let groupId: XmlNode | undefined;
  let groupId2: XmlNode | undefined;
  const groupNames: XmlNode[] = [];
  const features: Record<string, unknown>[] = [];
  const groups: XmlNode[] = [];
  for (const c of block.children) {
    switch (c.name) {
      case 'REFERENCE_FEATURE_SYSTEM_NAME':
        systemName ??= c;
        break;
      case 'REFERENCE_FEATURE_GROUP_ID':
        groupId ??= c;
        break;
      case 'REFERENCE_FEATURE_GROUP_ID2':
        groupId2 ??= c;
        break;
      case 'REFERENCE_FEATURE_GROUP_NAME':
        groupNames.push(c);
        break;
      case 'FEATURE':
        featuresOf(c, context, features, `${path}/FEATURE`);
        break;
      case 'FEATURE_GROUP':
        groups.push(c);
        break;
    }
  }
  const system = inSystem ?? (normalizeSystemName(text(systemName)) || NO_CLASSIFICATION_SYSTEM);
  const id = text(groupId) ? normalizeGroupId(text(groupId) ?? '') : undefined;
  const given = groupNames.find((n) => sameLanguage(n.attributes.lang, context.lang)) ?? groupNames[0];
  const givenName = text(given) || undefined;
  const definitions = context.definitions;
  const definedNames = id === undefined ? undefined : definitions?.groups.get(groupKey(system, id));
  const groupName =
    givenName ?? (definedNames ? pickName(definedNames, (l) => sameLanguage(l, context.lang)) : undefined);
  const resolvedId =
    id ?? (givenName === undefined ? undefined : (definitions?.groupIds.get(groupKey(system, givenName)) ?? givenName));
  const empty = inSystem === undefined && !text(systemName) && resolvedId === undefined && features.length === 0;
  if (empty) return { classification: undefined, system, groups };
  const classification: Record<string, unknown> = {
    systemName: system,
    groupId: resolvedId ?? NO_CLASSIFICATION_SYSTEM,
  };
  if (groupName !== undefined) classification.groupName = groupName;
  if (text(groupId2)) classification.groupId2 = text(groupId2);
  classification.features = features;
  return { classification, system, groups };
}

/** Whether a BMEcat `lang` (absent: the default language) is the API language `lang`. */
function sameLanguage(code: string | undefined, lang: LanguageCode): boolean {
  return language(code, lang) === lang;
}

/** An element made by the reader (a value resolved from its id), with `lang` when the definition gave one. */
function madeNode(name: string, value: string, lang: string, line: number): XmlNode {
  return { name, line, attributes: lang === '' ? {} : { lang }, children: NO_CHILDREN, text: value };
}

/** The made elements of a definition's names, one per language. */
function definedNodes(name: string, names: DefinedNames, line: number): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const lang in names) {
    const value = names[lang];
    if (value !== undefined) nodes.push(madeNode(name, value, lang, line));
  }
  return nodes;
}

/**
 * Adds a `FEATURE`'s entries to `out`: one language-neutral entry, or, when its names or values
 * carry `lang` (BMEcat 2005), one entry per language, with that language's name (else the name
 * without `lang`, labelled with the default language) and values (plus the values without `lang`).
 * The name is `FNAME`, else the ECLASS advanced `FTEMPLATE/FT_NAME`, else the name the catalog
 * defines for `FTEMPLATE/FT_ID` or `FT_IDREF`, else that id (a warning); values are `FVALUE`s and,
 * for each `VALUE_IDREF`, the catalog's name for it, else the `FVALUE_DETAILS`, else the id (a
 * warning). The unit is `FUNIT`, else `FTEMPLATE/FT_UNIT`, else the defined one.
 */
export function featuresOf(
  feature: XmlNode,
  context: FeatureContext,
  out: Record<string, unknown>[],
  path: string,
): void {
  const lang = context.lang;
  const names: XmlNode[] = [];
  const values: XmlNode[] = [];
  const valueIds: XmlNode[] = [];
  let details: XmlNode | undefined;
  let unit: XmlNode | undefined;
  let order: XmlNode | undefined;
  let featureId: XmlNode | undefined;
  let templateNames: XmlNode[] = [];
  let templateUnit: XmlNode | undefined;
  for (const f of feature.children) {
    switch (f.name) {
      case 'FNAME':
        names.push(f);
        break;
      case 'FVALUE':
        values.push(f);
        break;
      case 'VALUE_IDREF':
        valueIds.push(f);
        break;
      case 'FVALUE_DETAILS':
        details ??= f;
        break;
      case 'FUNIT':
        unit ??= f;
        break;
      case 'FORDER':
        order ??= f;
        break;
      case 'FT_IDREF':
        featureId ??= f;
        break;
      case 'FTEMPLATE': {
        const template = templateOf(f);
        featureId ??= template.id;
        templateNames = template.names;
        templateUnit = template.unit;
        break;
      }
    }
  }
  const id = text(featureId) || undefined;
  const defined = id === undefined ? undefined : context.definitions?.features.get(id);
  if (names.length === 0) names.push(...templateNames);
  if (names.length === 0 && defined) names.push(...definedNodes('FNAME', defined.names, feature.line));
  if (names.length === 0) {
    if (id !== undefined) {
      names.push(madeNode('FNAME', id, '', feature.line));
      warning(
        context,
        feature,
        path,
        'feature-name-unresolved',
        `feature ${id} has no name: the file defines no FEATURE_TEMPLATE with this FT_ID; kept with the id as its name`,
      );
    } else
      warning(
        context,
        feature,
        path,
        'feature-without-name',
        'a FEATURE without FNAME (or FTEMPLATE/FT_NAME) is kept with an empty name',
      );
  }
  for (const ref of valueIds) {
    const valueId = text(ref) ?? '';
    if (valueId === '') continue;
    const definedValue = context.definitions?.values.get(valueId);
    if (definedValue) values.push(...definedNodes('FVALUE', definedValue, ref.line));
    else if (details && text(details))
      values.push(madeNode('FVALUE', text(details) ?? '', details.attributes.lang ?? '', ref.line));
    else {
      values.push(madeNode('FVALUE', valueId, '', ref.line));
      warning(
        context,
        ref,
        `${path}/VALUE_IDREF`,
        'feature-value-unresolved',
        `value ${valueId} of feature ${text(names[0]) ?? ''} has no name: the file defines no ALLOWED_VALUE ` +
          'with this id and gives no FVALUE_DETAILS; kept as the id',
      );
    }
  }
  const labelled =
    names.some((n) => n.attributes.lang !== undefined) || values.some((v) => v.attributes.lang !== undefined);
  const unitText = text(unit) || text(templateUnit) || defined?.unit;
  const position = integer(text(order)) ?? out.length + 1;
  // Language-neutral features (the usual case) stay neutral.
  if (!labelled) return featureEntry(out, names[0], values, undefined, id, position, unitText);
  const languages: LanguageCode[] = [];
  // The languages of the names, and of the values that have one (a value without `lang` is neutral: a number, a code).
  for (const node of names) {
    const l = language(node.attributes.lang, lang);
    if (!languages.includes(l)) languages.push(l);
  }
  for (const node of values) {
    if (node.attributes.lang === undefined) continue;
    const l = language(node.attributes.lang, lang);
    if (!languages.includes(l)) languages.push(l);
  }
  for (const l of languages) {
    const name =
      names.find((n) => language(n.attributes.lang, lang) === l) ?? names.find((n) => !n.attributes.lang) ?? names[0];
    featureEntry(
      out,
      name,
      values.filter((v) => v.attributes.lang === undefined || language(v.attributes.lang, lang) === l),
      l,
      id,
      position,
      unitText,
    );
  }
}

/**
 * Adds one feature entry to `out`: `name`'s text and the trimmed texts of `of`, in language `l` when given.
 * A function of the module, not a closure made for every feature (see `describe` in `bmecat-item.ts`).
 */
function featureEntry(
  out: Record<string, unknown>[],
  name: XmlNode | undefined,
  of: readonly XmlNode[],
  l: LanguageCode | undefined,
  id: string | undefined,
  position: number,
  unitText: string | undefined,
): void {
  const feature: Record<string, unknown> = { name: text(name) ?? '', values: of.map((v) => v.text.trim()) };
  if (id !== undefined) feature.featureId = id;
  if (l !== undefined) feature.lang = l;
  feature.order = position;
  if (unitText) feature.unit = unitText;
  out.push(feature);
}

/** The id, names and unit of an ECLASS advanced `FTEMPLATE`. */
function templateOf(template: XmlNode): { id?: XmlNode; names: XmlNode[]; unit?: XmlNode } {
  let id: XmlNode | undefined;
  let unit: XmlNode | undefined;
  const names: XmlNode[] = [];
  for (const t of template.children) {
    if (t.name === 'FT_ID' || t.name === 'FT_IDREF') id ??= t;
    else if (t.name === 'FT_NAME' && t.text.trim() !== '') names.push(t);
    else if (t.name === 'FT_UNIT') unit ??= t;
  }
  return { ...(id ? { id } : {}), names, ...(unit ? { unit } : {}) };
}

function warning(context: FeatureContext, node: XmlNode, path: string, kind: FeatureWarning['kind'], message: string) {
  context.warnings.push({ kind, path, linesBelow: node.line - context.item.line, message });
}
