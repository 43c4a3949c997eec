import type { LoadedDocument, SourceFormat } from '../loading/loaded-document.js';
import type { OidNameResolver } from '../semantics/check-snmp-addresses.js';
import { validateDocument, validateSource, type SourceValidationResult } from '../validate.js';
import { patchDocument, type TextEdit } from './patch-document.js';
import { reparseEntry } from './reparse-entry.js';

/** Documents derived in a row before a full load (each adds a step to every position lookup). */
const MAX_PATCHES = 200;

/**
 * Validates successive versions of one template, loading a version in full only when it must.
 * The edits recorded since the last document that loaded are applied to it as one edit (the span
 * they changed): by reading again only the array entry that holds it (`reparseEntry`: a
 * datapoint, say, whatever the edit does inside it), else, when it stays inside a string value,
 * by patching that value (`patchDocument`); then the checks run again on the whole document. A
 * version that does not load keeps the last one that did, so that the edit which mends it is
 * applied to that. Gives the same problems as `validateSource` on the same text.
 */
export class IncrementalValidator {
  readonly #file: string;
  readonly #format: SourceFormat;
  readonly #oidNames: OidNameResolver | undefined;
  #current: LoadedDocument | undefined;
  /** Edits since `#current`, in order; undefined when a change replaced the whole text. */
  #edits: TextEdit[] | undefined = [];
  /** What the edits left as it was: this many characters at the start and at the end. */
  #same = { start: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY, length: 0 };
  #patches = 0;

  /** `oidNames` resolves MIB names in SNMP addresses, as `validateSource` takes it. */
  constructor(file: string, format: SourceFormat, oidNames?: OidNameResolver) {
    this.#file = file;
    this.#format = format;
    this.#oidNames = oidNames;
  }

  /** Validations since the last full load (each derived from the one before). */
  get steps(): number {
    return this.#patches;
  }

  /** Records an edit of the text (offsets of the text before it); undefined: the whole text was replaced. */
  record(edit: TextEdit | undefined): void {
    if (edit === undefined || this.#edits === undefined) {
      this.#edits = undefined;
      return;
    }
    this.#edits.push(edit);
    const same = this.#same;
    same.start = Math.min(same.start, edit.start);
    same.end = Math.min(same.end, same.length - edit.end);
    same.length += edit.text.length - (edit.end - edit.start);
  }

  /**
   * Validates `text`, the text after every recorded edit (recorded faithfully: only the span they
   * touched is compared with the last document's text). `patched` says whether loading was skipped.
   */
  validate(text: string): SourceValidationResult & { readonly patched: boolean } {
    const patched = this.#derived(text);
    if (patched !== undefined) {
      this.#loaded(patched);
      this.#patches++;
      const oidNames = this.#oidNames;
      return {
        ...validateDocument(patched, { strict: false, ...(oidNames ? { oidNames } : {}) }),
        document: patched,
        patched: true,
      };
    }
    const result = validateSource(text, {
      file: this.#file,
      format: this.#format,
      ...(this.#oidNames ? { oidNames: this.#oidNames } : {}),
    });
    if (result.document !== undefined) {
      this.#loaded(result.document);
      this.#patches = 0;
    }
    return { ...result, patched: false };
  }

  #loaded(document: LoadedDocument): void {
    this.#current = document;
    this.#edits = [];
    this.#same = { start: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY, length: document.text.length };
  }

  /** The document of `text` derived from `#current` without a full load, if the recorded edits allow it. */
  #derived(text: string): LoadedDocument | undefined {
    const document = this.#current;
    const edits = this.#edits;
    if (document === undefined || edits === undefined || this.#patches >= MAX_PATCHES) return undefined;
    if (this.#same.length !== text.length) return undefined;
    if (edits.length === 0) return document.text === text ? document : undefined;
    const old = document.text;
    // The span the edits touched, narrowed to what differs (edits undone leave it wider than that).
    let start = Math.min(this.#same.start, old.length, text.length);
    let end = Math.min(this.#same.end, old.length - start, text.length - start);
    while (start < old.length - end && start < text.length - end && old.charCodeAt(start) === text.charCodeAt(start))
      start++;
    while (
      end < old.length - start &&
      end < text.length - start &&
      old.charCodeAt(old.length - 1 - end) === text.charCodeAt(text.length - 1 - end)
    )
      end++;
    if (start + end === old.length && old.length === text.length) return document; // edits undone
    const edit = { start, end: old.length - end, text: text.slice(start, text.length - end) };
    return reparseEntry(document, edit, text) ?? patchDocument(document, edit, text) ?? patchEach(document, edits);
  }
}

/** `document` patched edit by edit (edits inside two values, say), or undefined. */
function patchEach(document: LoadedDocument, edits: readonly TextEdit[]): LoadedDocument | undefined {
  if (edits.length < 2) return undefined;
  let patched: LoadedDocument | undefined = document;
  for (const edit of edits) {
    const before: string = patched.text;
    patched = patchDocument(patched, edit, before.slice(0, edit.start) + edit.text + before.slice(edit.end));
    if (patched === undefined) return undefined;
  }
  return patched;
}
