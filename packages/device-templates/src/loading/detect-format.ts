import type { SourceFormat } from './loaded-document.js';

/**
 * Decides how to parse a text: the explicit `format` wins; then the file extension (`.json` ->
 * JSON, `.yml`/`.yaml` -> YAML, case-insensitive); then the content: a first non-blank character
 * `{` or `[` means JSON, anything else YAML.
 */
export function detectFormat(text: string, file: string | undefined, format: SourceFormat | undefined): SourceFormat {
  if (format !== undefined) return format;
  const extension = file === undefined ? '' : (/\.([A-Za-z0-9]+)$/.exec(file)?.[1] ?? '').toLowerCase();
  if (extension === 'json') return 'json';
  if (extension === 'yml' || extension === 'yaml') return 'yaml';
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x7b /* { */ || c === 0x5b /* [ */ ? 'json' : 'yaml';
  }
  return 'yaml';
}
