// STUB: replaced by the loading module.
import type { LoadedDocument, SourceFormat } from './loaded-document.js';

export interface LoadLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxAliasNodes: number;
}
export interface LoadOptions {
  readonly file?: string;
  readonly format?: SourceFormat;
  readonly limits?: Partial<LoadLimits>;
}
export function loadDocument(_input: string | Uint8Array, _options: LoadOptions = {}): LoadedDocument {
  throw new Error('not implemented');
}
export const DEFAULT_LOAD_LIMITS: LoadLimits = Object.freeze({ maxBytes: 32 * 1024 * 1024, maxDepth: 64, maxAliasNodes: 100_000 });
