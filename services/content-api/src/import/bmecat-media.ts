import type { LanguageCode } from '../model/article.js';
import { addLabelled, text, type XmlNode } from './bmecat-node.js';
import { mimeTypeOf } from './mime-types.js';

/**
 * Every `MIME` of `MIME_INFO` (images, data sheets, safety data sheets ...) with its purpose,
 * descriptions and alternative texts; relative sources resolved against the header's `MIME_ROOT`.
 * Several `MIME_SOURCE`s with `lang` (2005) become `hrefs`; a missing `MIME_TYPE` is taken from
 * the source's file extension.
 */
export function mediaOf(
  mimeInfo: XmlNode | undefined,
  lang: LanguageCode,
  root: string | undefined,
): Record<string, unknown>[] {
  const media: Record<string, unknown>[] = [];
  for (const m of mimeInfo?.children ?? []) {
    if (m.name !== 'MIME') continue;
    let type: XmlNode | undefined;
    let purpose: XmlNode | undefined;
    const sources: { lang: LanguageCode; value: string }[] = [];
    const descriptions: { lang: LanguageCode; value: string }[] = [];
    const alts: { lang: LanguageCode; value: string }[] = [];
    for (const c of m.children) {
      switch (c.name) {
        case 'MIME_TYPE':
          type ??= c;
          break;
        case 'MIME_SOURCE':
          addLabelled(sources, c, lang);
          break;
        case 'MIME_PURPOSE':
          purpose ??= c;
          break;
        case 'MIME_DESCR':
          addLabelled(descriptions, c, lang);
          break;
        case 'MIME_ALT':
          addLabelled(alts, c, lang);
          break;
      }
    }
    const source = sources.find((x) => x.lang === lang) ?? sources[0];
    if (source === undefined) continue; // nothing to show
    const href = resolveSource(source.value, root);
    const entry: Record<string, unknown> = {
      mimeType: text(type) || mimeTypeOf(href),
      href,
      purpose: text(purpose) || 'normal',
      descriptions,
    };
    if (alts.length > 0) entry.alts = alts;
    if (sources.length > 1) entry.hrefs = sources.map((x) => ({ lang: x.lang, value: resolveSource(x.value, root) }));
    media.push(entry);
  }
  return media;
}

/** `source` against `MIME_ROOT`: unchanged when it has a scheme (`https:`, `data:`) or there is no root. */
export function resolveSource(source: string, root: string | undefined): string {
  if (root === undefined || /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(source)) return source;
  return `${root.replace(/\/+$/, '')}/${source.replace(/^\/+/, '')}`;
}
