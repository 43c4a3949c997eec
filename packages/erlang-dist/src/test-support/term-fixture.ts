import type { Term } from '../term.js';

/** One row of the byte-fixture table (`term-fixtures.generated.ts`): a term and its bytes. */
export interface TermFixture {
  readonly name: string;
  /** The Erlang expression that produced (or, when hand-written, is checked against) the bytes. */
  readonly erlang: string;
  /** The decoded term; null when a dedicated test checks it (funs). */
  readonly term: Term | null;
  /** The external term bytes, version byte included. */
  readonly hex: string;
  /** Our encoder writes exactly these bytes. */
  readonly canonical: boolean;
  /** The bytes change between erl runs (excluded from the re-capture comparison). */
  readonly volatile: boolean;
  /** 'term_to_binary' from erl, or 'hand-written' bytes that erl's binary_to_term accepted. */
  readonly source: 'term_to_binary' | 'hand-written';
}
