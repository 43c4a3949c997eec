import type { ImportWarning } from '../model/import-run.js';
import type { ItemWarning } from './bmecat-node.js';

/**
 * Counts the warnings the reader attached to the records of one file (`ItemWarning`: a feature
 * kept under its id, an element given twice), per kind and element path, with the line of the
 * first and its message. A file with a million such records holds one entry per kind and path.
 */
export class ItemWarnings {
  readonly #byKey = new Map<string, { kind: string; path: string; count: number; line: number; message: string }>();

  /** Counts the warnings of the record that starts on line `itemLine`. */
  add(itemLine: number, warnings: readonly ItemWarning[]): void {
    for (const w of warnings) {
      const key = `${w.kind} ${w.path}`;
      const line = itemLine + w.linesBelow;
      const entry = this.#byKey.get(key);
      if (entry === undefined) this.#byKey.set(key, { kind: w.kind, path: w.path, count: 1, line, message: w.message });
      else {
        entry.count += 1;
        if (line < entry.line) {
          entry.line = line;
          entry.message = w.message;
        }
      }
    }
  }

  /** Every warning counted, in the order of the first line; a repeated one says how often. */
  warnings(): ImportWarning[] {
    return [...this.#byKey.values()]
      .map(({ kind, path, count, line, message }) => ({
        kind,
        path,
        count,
        line,
        message: count === 1 ? message : `${message} (the first of ${count})`,
      }))
      .sort(byLine);
  }
}

/** Warnings in the order of their first line, then by path. */
export function byLine(a: ImportWarning, b: ImportWarning): number {
  return a.line - b.line || a.path.localeCompare(b.path);
}
