import type { SemanticCheck } from './semantic-reporter.js';

/**
 * The version pattern of the published schema, as written there: unanchored, with unescaped dots
 * and a variable-width lookbehind. It accepts `1.2.3.4`, `1x2x3`, `foo 1.2.3` and `1.2.3-`.
 */
export const LAX_VERSION_PATTERN =
  /(?<=^v?|\sv?)(?:(?:0|[1-9][0-9]*).){2}(?:0|[1-9][0-9]*)(?:-(?:0|[1-9][0-9]*|[0-9a-z-]*[a-z-][0-9a-z-]*)(?:.(?:0|[1-9][0-9]*|[0-9a-z-]*[a-z-][0-9a-z-]*))*)?(?:\+[0-9a-z-]+(?:.[0-9a-z-]+)*)?\b/u;

/** SemVer 2.0.0, with the optional leading `v` the format allows. */
export const STRICT_VERSION_PATTERN =
  /^v?(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

const VERSION_FIELDS = ['schemaVersion', 'templateVersion'] as const;

/**
 * Flags a `schemaVersion` or `templateVersion` that the schema's lax pattern accepts but that is
 * not SemVer (`1.2.3.4`, `foo 1.2.3`). Values the lax pattern rejects are schema errors.
 */
export const checkVersions: SemanticCheck = (model, reporter) => {
  for (const field of VERSION_FIELDS) {
    const value = model.root[field];
    if (typeof value !== 'string' || STRICT_VERSION_PATTERN.test(value) || !LAX_VERSION_PATTERN.test(value)) continue;
    const core = /(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)/.exec(value)?.[0];
    reporter.report('DT_WARN_QUIRK_VERSION_NOT_SEMVER', [field], {
      message:
        `The ${field} '${value}' passes the published schema's lax pattern but is not a SemVer version; ` +
        `write MAJOR.MINOR.PATCH with an optional -prerelease and ` +
        `+build${core !== undefined ? `, e.g. '${core}'` : ''}.`,
      found: value,
      allowed: 'MAJOR.MINOR.PATCH[-prerelease][+build], optional leading v',
      ...(core !== undefined ? { suggestion: core } : {}),
    });
  }
};
