import { ProblemError } from './problem-error.js';

/** One catalogue entry: the HTTP status and the fixed title of an error code. */
export interface ProblemDefinition {
  readonly status: number;
  readonly title: string;
}

/** A frozen catalogue `CODE -> {status, title}` plus a factory for its errors. */
export interface ProblemCatalogue<Code extends string> {
  readonly definitions: Readonly<Record<Code, ProblemDefinition>>;
  /** Builds the error for `code`; `detail` explains this occurrence, `extensions` add members. */
  create(
    code: Code,
    detail?: string,
    extensions?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown },
  ): ProblemError;
}

/**
 * Defines a package's or service's error catalogue (`PREFIX_ERR_AREA_WHAT -> status, title`).
 * Codes never change meaning; a test pins every entry.
 */
export function defineProblemCatalogue<const T extends Record<string, ProblemDefinition>>(
  definitions: T,
): ProblemCatalogue<Extract<keyof T, string>> {
  const frozen = Object.freeze(
    Object.fromEntries(Object.entries(definitions).map(([k, v]) => [k, Object.freeze({ ...v })])),
  ) as Readonly<Record<Extract<keyof T, string>, ProblemDefinition>>;
  return Object.freeze({
    definitions: frozen,
    create(
      code: Extract<keyof T, string>,
      detail?: string,
      extensions?: Readonly<Record<string, unknown>>,
      options?: { cause?: unknown },
    ) {
      const definition = frozen[code];
      return new ProblemError({
        code,
        status: definition.status,
        title: definition.title,
        ...(detail !== undefined ? { detail } : {}),
        ...(extensions !== undefined ? { extensions } : {}),
        ...(options?.cause !== undefined ? { cause: options.cause } : {}),
      });
    },
  });
}
