// STUB: replaced by the schema module.
import type { LoadedDocument } from '../loading/loaded-document.js';
import type { Problem } from '../problem.js';
export function checkSchema(_document: LoadedDocument): Problem[] {
  return [];
}
