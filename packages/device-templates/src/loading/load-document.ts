import { decodeText } from './decode-text.js';
import { detectFormat } from './detect-format.js';
import { loadJsonDocument } from './json-document.js';
import { resolveLoadLimits, type LoadLimits } from './load-limits.js';
import type { LoadedDocument, SourceFormat } from './loaded-document.js';
import { loadYamlDocument } from './yaml-document.js';

export { DEFAULT_LOAD_LIMITS, type LoadLimits } from './load-limits.js';

export interface LoadOptions {
  /** File name, used for format detection by extension and returned as `document.file`. Default `<input>`. */
  readonly file?: string;
  /** Parse as this format; by default chosen from the file extension, else from the content. */
  readonly format?: SourceFormat;
  /** Overrides of `DEFAULT_LOAD_LIMITS`. */
  readonly limits?: Partial<LoadLimits>;
}

/**
 * Reads a template's text (or UTF-8 bytes) as JSON or YAML and returns the parsed value with a
 * way to find where any value is written (`positionOf`).
 *
 * Format: `options.format`; else `.json` -> JSON and `.yml`/`.yaml` -> YAML by file extension;
 * else JSON when the first non-blank character is `{` or `[`, YAML otherwise.
 *
 * The value is always plain JSON data. Throws `DocumentLoadError` carrying one problem
 * (code `DT_ERR_LOAD_*`, 1-based line and column, JSON Pointer `path` or `''`) when:
 * - the input is larger than `limits.maxBytes` (`DT_ERR_LOAD_TOO_LARGE`);
 * - bytes are not valid UTF-8 (`DT_ERR_LOAD_ENCODING`; a UTF-8 BOM is accepted and removed);
 * - the text is blank (`DT_ERR_LOAD_EMPTY`) or not well-formed (`DT_ERR_LOAD_SYNTAX`);
 * - an object or mapping repeats a key (`DT_ERR_LOAD_DUPLICATE_KEY`, naming both places);
 * - objects/arrays nest deeper than `limits.maxDepth` (`DT_ERR_LOAD_TOO_DEEP`);
 * - a number is infinite or NaN (`DT_ERR_LOAD_NOT_FINITE`: YAML `.inf`/`.nan`, JSON `1e999`);
 * - YAML only: more than one document (`DT_ERR_LOAD_MULTIPLE_DOCUMENTS`); a key that is not a
 *   string, such as `1:` or `true:` (`DT_ERR_LOAD_KEY_NOT_STRING`: refused rather than turned into
 *   a string, since `1:` and `'1':` are different YAML); a merge key `<<` (`DT_ERR_LOAD_MERGE_KEY`,
 *   not supported); a tag other than the JSON-compatible core tags (`DT_ERR_LOAD_TAG`); aliases
 *   that expand to more than `limits.maxAliasNodes` nodes (`DT_ERR_LOAD_ALIAS_LIMIT`, checked while
 *   parsing so that alias bombs stop early) or that refer to their own ancestor
 *   (`DT_ERR_LOAD_ALIAS_CYCLE`).
 *
 * YAML uses the 1.2 core schema: `2021-01-01`, `yes` and `on` stay strings. Aliases are kept:
 * the value repeats the anchored object by reference, and `positionOf` of a path through an alias
 * answers with the place where the anchored value is written.
 *
 * Throws a `RangeError` for an invalid `limits` option (a programming error).
 */
export function loadDocument(input: string | Uint8Array, options: LoadOptions = {}): LoadedDocument {
  const limits = resolveLoadLimits(options.limits);
  const text = decodeText(input, limits.maxBytes);
  const file = options.file ?? '<input>';
  const format = detectFormat(text, options.file, options.format);
  return format === 'json' ? loadJsonDocument(text, file, limits) : loadYamlDocument(text, file, limits);
}
