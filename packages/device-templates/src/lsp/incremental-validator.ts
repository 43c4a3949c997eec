import type { LoadedDocument, SourceFormat } from '../loading/loaded-document.js';
import { validateDocument, validateSource, type SourceValidationResult } from '../validate.js';
import { patchDocument, type TextEdit } from './patch-document.js';

/** Patched documents in a row before a full load (each adds a step to every position lookup). */
const MAX_PATCHES = 200;

/**
 * Validates successive versions of one template, loading a version in full only when it must:
 * edits recorded since the last validation that stay inside string values are applied to the last
 * loaded document (`patchDocument`) and only the checks run again. Gives the same problems as
 * `validateSource` on the same text.
 */
export class IncrementalValidator {
  readonly #file: string;
  readonly #format: SourceFormat;
  #current: LoadedDocument | undefined;
  /** Edits since `#current`, in order; undefined when a change replaced the whole text. */
  #edits: TextEdit[] | undefined = [];
  #patches = 0;

  constructor(file: string, format: SourceFormat) {
    this.#file = file;
    this.#format = format;
  }

  /** Records an edit of the text (offsets of the text before it); undefined: the whole text was replaced. */
  record(edit: TextEdit | undefined): void {
    if (edit === undefined) this.#edits = undefined;
    else this.#edits?.push(edit);
  }

  /** Validates `text`, the text after every recorded edit. `patched` says whether loading was skipped. */
  validate(text: string): SourceValidationResult & { readonly patched: boolean } {
    const patched = this.#patched(text);
    this.#edits = [];
    if (patched !== undefined) {
      this.#current = patched;
      this.#patches++;
      return { ...validateDocument(patched, { strict: false }), document: patched, patched: true };
    }
    const result = validateSource(text, { file: this.#file, format: this.#format });
    this.#current = result.document;
    this.#patches = 0;
    return { ...result, patched: false };
  }

  #patched(text: string): LoadedDocument | undefined {
    let document = this.#current;
    const edits = this.#edits;
    if (document === undefined || edits === undefined || this.#patches + edits.length > MAX_PATCHES) return undefined;
    for (const edit of edits) {
      const before = document.text;
      const after = before.slice(0, edit.start) + edit.text + before.slice(edit.end);
      document = patchDocument(document, edit, after);
      if (document === undefined) return undefined;
    }
    return document.text === text ? document : undefined;
  }
}
