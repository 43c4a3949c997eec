/** Helpers for the loading tests: where a piece of text sits, computed independently of the loader. */
import { expect } from 'vitest';
import { DocumentLoadError } from '../document-load-error.js';
import type { Problem } from '../../problem.js';

/** 1-based line and column of the `occurrence`-th (0-based) occurrence of `needle` in `text`. */
export function placeOf(text: string, needle: string, occurrence = 0): { line: number; column: number } {
  let at = -1;
  for (let k = 0; k <= occurrence; k += 1) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${occurrence + 1} times`);
  }
  const before = text.slice(0, at).split(/\r\n|\r|\n/);
  return { line: before.length, column: (before[before.length - 1] as string).length + 1 };
}

/** Runs `load` and returns the problem of the `DocumentLoadError` it must throw. */
export function problemOf(load: () => unknown): Problem {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(DocumentLoadError);
    return (error as DocumentLoadError).problem;
  }
  throw new Error('expected a DocumentLoadError, but the input loaded');
}
