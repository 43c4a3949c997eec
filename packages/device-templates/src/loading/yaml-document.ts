import yaml from 'js-yaml';
import { DocumentLoadError } from './document-load-error.js';
import { formatPlace, loadFailure } from './load-failure.js';
import type { LoadLimits } from './load-limits.js';
import type { LoadedDocument } from './loaded-document.js';
import { intAt } from './int-at.js';
import { LineIndex } from './line-index.js';
import { positionedDocument } from './positioned-document.js';
import { FRAME_EMPTY, YamlFrames } from './yaml-frames.js';
import { skipBlank } from './yaml-gaps.js';
import { YamlPositions } from './yaml-positions.js';
import { buildYamlStructure } from './yaml-structure.js';
import { yamlSyntaxMessage } from './yaml-syntax-message.js';

/**
 * The schema templates are read with: YAML 1.2's core schema, so that plain scalars resolve to
 * JSON data only (`null`/`~`, `true`/`false`, numbers) and everything else stays a string:
 * `2021-01-01` is a string (no timestamps), `yes`/`on` are strings (no YAML 1.1 booleans), and
 * `<<` is an ordinary key (no merge type; `yaml-structure.ts` refuses it explicitly).
 *
 * Three catch-all types accept any other tag (`!custom`, `!!binary`, `!!timestamp`...) so that
 * parsing goes on and the loader can refuse the tag with its own message and position.
 */
const TEMPLATE_SCHEMA = yaml.CORE_SCHEMA.extend(
  (['scalar', 'sequence', 'mapping'] as const).map(
    (kind) => new yaml.Type('', { kind, multi: true, construct: (data: unknown) => data }),
  ),
);

/** js-yaml's load options, with `maxDepth`, which js-yaml 4.3 reads but its typings omit. */
type ParserOptions = yaml.LoadOptions & { maxDepth?: number };

/**
 * Parses YAML text into a positioned document (see `loadDocument` for what is refused).
 *
 * js-yaml builds the value; its parse listener records every node's offsets, from which the
 * value tree is matched to the text once, so that later `positionOf` calls are cheap.
 */
export function loadYamlDocument(text: string, file: string, limits: LoadLimits): LoadedDocument {
  const lines = new LineIndex(text);
  const frames = new YamlFrames(text, lines, limits.maxAliasNodes);
  let documents: unknown[];
  try {
    const options: ParserOptions = {
      schema: TEMPLATE_SCHEMA,
      // Keeps js-yaml from throwing on duplicate keys, so that we report both places ourselves.
      json: true,
      listener: frames.listener as unknown as ParserOptions['listener'],
      // js-yaml nests up to two parse levels per value level; the exact check comes later.
      maxDepth: 2 * limits.maxDepth + 4,
    };
    documents = yaml.loadAll(text, null, options);
  } catch (error) {
    throw asLoadError(error, lines, limits);
  }
  if (documents.length === 0 || (documents.length === 1 && frames.kind[0] === FRAME_EMPTY && !frames.isAlias(0))) {
    throw loadFailure(
      'DT_ERR_LOAD_EMPTY',
      { path: '', line: 1, column: 1 },
      'The YAML document is empty: it must hold the template mapping.',
    );
  }
  if (documents.length > 1) throw multipleDocuments(text, frames, lines, documents.length);
  const structure = buildYamlStructure(frames, text, lines, 0, limits.maxDepth);
  const positions = new YamlPositions(structure);
  return positionedDocument({ value: documents[0], format: 'yaml', text, file }, lines, (path, which) =>
    positions.offsetOf(path, which),
  );
}

function asLoadError(error: unknown, lines: LineIndex, limits: LoadLimits): unknown {
  if (error instanceof DocumentLoadError) return error;
  if (error instanceof yaml.YAMLException) {
    const reason = error.reason;
    // js-yaml's typings promise a mark; an exception made without one has none.
    const mark: Partial<yaml.Mark> | undefined = error.mark;
    const at = lines.positionAt(mark?.position ?? 0);
    if (reason.startsWith('nesting exceeded maxDepth')) return tooDeep(at, limits);
    return loadFailure(
      'DT_ERR_LOAD_SYNTAX',
      { path: '', line: at.line, column: at.column },
      yamlSyntaxMessage(reason, formatPlace(at)),
    );
  }
  // A parser recursing past the call stack: only nesting far beyond any limit gets there.
  if (error instanceof RangeError) return tooDeep({ line: 1, column: 1 }, limits);
  return error;
}

function tooDeep(at: { line: number; column: number }, limits: LoadLimits) {
  return loadFailure(
    'DT_ERR_LOAD_TOO_DEEP',
    { path: '', line: at.line, column: at.column },
    `Mappings and sequences are nested more than ${limits.maxDepth} levels deep at ${formatPlace(at)}; ` +
      'a template is far shallower: check for runaway nesting, or raise limits.maxDepth.',
    { allowed: `at most ${limits.maxDepth} levels` },
  );
}

function multipleDocuments(text: string, frames: YamlFrames, lines: LineIndex, count: number) {
  const second = intAt(frames.subtreeEnd, 0); // the frame after the first document's root
  let offset = skipBlank(text, frames.open[second] ?? 0, text.length);
  const marker = text.lastIndexOf('---', offset);
  if (marker >= 0 && (marker === 0 || text.charCodeAt(marker - 1) === 0x0a || text.charCodeAt(marker - 1) === 0x0d))
    offset = marker;
  const at = lines.positionAt(offset);
  return loadFailure(
    'DT_ERR_LOAD_MULTIPLE_DOCUMENTS',
    { path: '', line: at.line, column: at.column },
    `The file holds ${count} YAML documents (the second starts at ${formatPlace(at)}), but a template is one ` +
      `document; ` +
      "remove the '---' separator and what follows, or put each template in its own file.",
    { found: count },
  );
}
