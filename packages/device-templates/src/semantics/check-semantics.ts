// STUB: replaced by the semantics module.
import type { LoadedDocument } from '../loading/loaded-document.js';
import type { Problem } from '../problem.js';
export function checkSemantics(_document: LoadedDocument): Problem[] {
  return [];
}
