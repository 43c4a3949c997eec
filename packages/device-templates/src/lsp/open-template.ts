import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LoadedDocument, SourceFormat } from '../loading/loaded-document.js';

/** A template open in the editor: its text and the last document of it that could be parsed. */
export interface OpenTemplate {
  readonly text: TextDocument;
  readonly format: SourceFormat;
  /** The latest parsed document (possibly of an earlier version, when the current one does not parse). */
  readonly parsed: LoadedDocument | undefined;
}
