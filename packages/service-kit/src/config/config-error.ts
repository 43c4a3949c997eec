/** One way a configuration breaks its schema. */
export interface ConfigViolation {
  /** JSON Pointer of the setting (`/port`); for a missing or unknown setting, the one named. */
  readonly path: string;
  /** The environment variable that feeds the setting, when the schema names one (`env` keyword). */
  readonly env?: string;
  readonly message: string;
}

/**
 * Thrown by `loadConfig` with every violation at once (`SVC_ERR_CONFIG_INVALID`). The message lists
 * them one per line; values are never repeated (they may be secrets).
 */
export class ConfigError extends Error {
  readonly code = 'SVC_ERR_CONFIG_INVALID';
  readonly violations: readonly ConfigViolation[];
  constructor(violations: readonly ConfigViolation[]) {
    super(
      `Invalid configuration (${violations.length} problem${violations.length === 1 ? '' : 's'}):\n` +
        violations.map((v) => `  - ${v.env ? `${v.env} (${v.path})` : v.path}: ${v.message}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.violations = Object.freeze(violations.map((v) => Object.freeze({ ...v })));
  }
}
