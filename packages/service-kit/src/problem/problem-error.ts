/** What a `ProblemError` is built from. */
export interface ProblemErrorInit {
  /** Stable catalogue code, e.g. `TPL_ERR_TEMPLATE_NOT_FOUND`. */
  readonly code: string;
  /** HTTP status, 400 to 599. */
  readonly status: number;
  /** Short summary that is the same for every occurrence of the code. */
  readonly title: string;
  /** What went wrong this time, for a person to act on. */
  readonly detail?: string;
  /** Extra members of the problem document (e.g. `errors`, `limit`); standard members cannot be overridden. */
  readonly extensions?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

/**
 * A known error: the problem handler turns it into an `application/problem+json` reply
 * (RFC 9457) with its status, title, detail and extension members, plus `code` and `requestId`.
 */
export class ProblemError extends Error {
  readonly code: string;
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly extensions: Readonly<Record<string, unknown>>;

  constructor(init: ProblemErrorInit) {
    super(init.detail ?? init.title, init.cause !== undefined ? { cause: init.cause } : undefined);
    if (!Number.isInteger(init.status) || init.status < 400 || init.status > 599) {
      throw new RangeError(`ProblemError status must be 400..599, got ${init.status}`);
    }
    this.name = 'ProblemError';
    this.code = init.code;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.extensions = Object.freeze({ ...init.extensions });
  }
}
