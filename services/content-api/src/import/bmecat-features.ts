import type { LanguageCode } from '../model/article.js';
import { integer, language, text, type XmlNode } from './bmecat-node.js';

/**
 * A feature group with a reference system (`ARTICLE_FEATURES` / `PRODUCT_FEATURES`) as a classification; undefined
 * without one.
 */
export function classificationOf(group: XmlNode, lang: LanguageCode): Record<string, unknown> | undefined {
  let systemName: XmlNode | undefined;
  let groupId: XmlNode | undefined;
  const features: Record<string, unknown>[] = [];
  for (const c of group.children) {
    if (c.name === 'REFERENCE_FEATURE_SYSTEM_NAME') systemName ??= c;
    else if (c.name === 'REFERENCE_FEATURE_GROUP_ID') groupId ??= c;
    else if (c.name === 'FEATURE') featuresOf(c, lang, features);
  }
  if (!systemName) return undefined;
  return {
    systemName: text(systemName),
    groupId: text(groupId)?.replaceAll('-', ''),
    features,
  };
}

/**
 * Adds a `FEATURE`'s entries to `out`: one language-neutral entry, or, when its names or values
 * carry `lang` (BMEcat 2005), one entry per language, with that language's name (else the name
 * without `lang`, labelled with the default language) and values (plus the values without `lang`).
 */
export function featuresOf(feature: XmlNode, lang: LanguageCode, out: Record<string, unknown>[]): void {
  const names: XmlNode[] = [];
  const values: XmlNode[] = [];
  let unit: XmlNode | undefined;
  let order: XmlNode | undefined;
  let labelled = false;
  for (const f of feature.children) {
    switch (f.name) {
      case 'FNAME':
        names.push(f);
        labelled ||= f.attributes.lang !== undefined;
        break;
      case 'FVALUE':
        values.push(f);
        labelled ||= f.attributes.lang !== undefined;
        break;
      case 'FUNIT':
        unit ??= f;
        break;
      case 'FORDER':
        order ??= f;
        break;
    }
  }
  const position = integer(text(order)) ?? out.length + 1;
  const entry = (name: XmlNode | undefined, of: readonly XmlNode[], l?: LanguageCode) => {
    const feature: Record<string, unknown> = { name: text(name) ?? '', values: of.map((v) => v.text.trim()) };
    if (l !== undefined) feature.lang = l;
    feature.order = position;
    if (unit) feature.unit = text(unit);
    out.push(feature);
  };
  // Language-neutral features (the usual case) stay neutral.
  if (!labelled) return entry(names[0], values);
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
  const inLanguage = (node: XmlNode, l: LanguageCode) => language(node.attributes.lang, lang) === l;
  for (const l of languages) {
    const name = names.find((n) => inLanguage(n, l)) ?? names.find((n) => !n.attributes.lang) ?? names[0];
    entry(
      name,
      values.filter((v) => v.attributes.lang === undefined || inLanguage(v, l)),
      l,
    );
  }
}
