import type { SourceFormat } from '@triad/device-templates';

/** Media types a template source may be sent with, YAML ones first in the order we prefer to answer. */
export const YAML_MEDIA_TYPES = ['application/yaml', 'text/yaml', 'application/x-yaml'] as const;
export const JSON_MEDIA_TYPE = 'application/json';

/** Media type used when answering with a stored source of the given format. */
export function mediaTypeOf(format: SourceFormat): string {
  return format === 'yaml' ? 'application/yaml' : JSON_MEDIA_TYPE;
}

/** The source format a request's Content-Type announces, or undefined for another type. */
export function formatOfContentType(contentType: string | undefined): SourceFormat | undefined {
  const base = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (base === JSON_MEDIA_TYPE) return 'json';
  if (YAML_MEDIA_TYPES.some((type) => type === base)) return 'yaml';
  return undefined;
}

/** One entry of an Accept header. */
interface AcceptRange {
  readonly type: string;
  readonly q: number;
  readonly order: number;
}

function parseAccept(header: string): AcceptRange[] {
  return header
    .split(',')
    .map((part, order) => {
      const [range = '', ...params] = part.split(';').map((s) => s.trim());
      let q = 1;
      for (const param of params) {
        const m = /^q=([0-9.]+)$/i.exec(param);
        if (m) q = Number(m[1]);
      }
      return { type: range.toLowerCase(), q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((r) => r.type !== '');
}

function specificity(range: string, offered: string): number {
  if (range === offered) return 3;
  const [type] = offered.split('/');
  if (range === `${type}/*`) return 2;
  if (range === '*/*') return 1;
  return 0;
}

/**
 * Picks the offered media type the Accept header prefers (RFC 9110 §12.5.1: highest q, then the
 * most specific range, then the order offered). A missing or empty header accepts the first offer.
 * Returns undefined when nothing offered is acceptable.
 */
export function negotiate(acceptHeader: string | undefined, offered: readonly string[]): string | undefined {
  if (!acceptHeader || acceptHeader.trim() === '') return offered[0];
  const ranges = parseAccept(acceptHeader);
  let best: { type: string; q: number; specificity: number; index: number } | undefined;
  offered.forEach((type, index) => {
    let match: { q: number; specificity: number } | undefined;
    for (const range of ranges) {
      const s = specificity(range.type, type);
      if (s > 0 && (!match || s > match.specificity)) match = { q: range.q, specificity: s };
    }
    // A q=0 range on its most specific match means "not this one".
    if (!match || match.q <= 0) return;
    if (!best || match.q > best.q || (match.q === best.q && match.specificity > best.specificity)) {
      best = { type, q: match.q, specificity: match.specificity, index };
    }
  });
  return best?.type;
}
