import { errorMessage } from '@triad/common';
import { scanJsonPositions } from './scan-json-positions.js';
import { findJsonSyntaxError } from './json-syntax-error.js';
import { formatPlace, loadFailure } from './load-failure.js';
import type { LoadLimits } from './load-limits.js';
import type { LoadedDocument } from './loaded-document.js';
import { LineIndex } from './line-index.js';
import { firstNonBlank, positionedDocument } from './positioned-document.js';

/**
 * Parses JSON text into a positioned document. Values come from `JSON.parse` (the fastest
 * parser there is); a second, lighter pass records positions and refuses what `JSON.parse`
 * accepts but a template must not have (duplicate keys, excessive depth, infinite numbers).
 * When `JSON.parse` fails, a grammar check written for messages explains the first error.
 *
 * Throws `DocumentLoadError` (`DT_ERR_LOAD_EMPTY`, `DT_ERR_LOAD_SYNTAX`,
 * `DT_ERR_LOAD_DUPLICATE_KEY`, `DT_ERR_LOAD_TOO_DEEP`, `DT_ERR_LOAD_NOT_FINITE`).
 */
export function loadJsonDocument(text: string, file: string, limits: LoadLimits): LoadedDocument {
  const lines = new LineIndex(text);
  if (firstNonBlank(text) === text.length) {
    throw loadFailure(
      'DT_ERR_LOAD_EMPTY',
      { path: '', line: 1, column: 1 },
      'The JSON document is empty: it must hold one value, the template object.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw syntaxFailure(text, lines, error);
  }
  const positions = scanJsonPositions(text, limits.maxDepth, lines);
  return positionedDocument({ value, format: 'json', text, file }, lines, (path, which) =>
    positions.offsetOf(path, which),
  );
}

function syntaxFailure(text: string, lines: LineIndex, error: unknown) {
  const fault = findJsonSyntaxError(text, lines);
  if (fault !== undefined) {
    const at = lines.positionAt(fault.offset);
    return loadFailure('DT_ERR_LOAD_SYNTAX', { path: '', line: at.line, column: at.column }, fault.message);
  }
  // JSON.parse refused something the grammar check accepts: report the engine's words.
  const reason = errorMessage(error);
  const offset = Number(/position (\d+)/.exec(reason)?.[1] ?? 0);
  const at = lines.positionAt(offset);
  return loadFailure(
    'DT_ERR_LOAD_SYNTAX',
    { path: '', line: at.line, column: at.column },
    `The JSON text cannot be parsed at ${formatPlace(at)}: ${reason}.`,
  );
}
