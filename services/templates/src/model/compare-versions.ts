/** A version split into the parts that decide precedence (SemVer 2.0.0 §11). */
interface ParsedVersion {
  readonly core: readonly [string, string, string];
  readonly prerelease: readonly string[];
}

const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
const NUMERIC = /^\d+$/;

function parse(version: string): ParsedVersion | undefined {
  const m = SEMVER.exec(version);
  if (!m) return undefined;
  return { core: [m[1] ?? '0', m[2] ?? '0', m[3] ?? '0'], prerelease: m[4] ? m[4].split('.') : [] };
}

/** Compares digit strings of any length numerically (no overflow). */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIdentifiers(a: string, b: string): number {
  const an = NUMERIC.test(a);
  const bn = NUMERIC.test(b);
  if (an && bn) return compareDigits(a, b);
  if (an) return -1; // numeric identifiers have lower precedence than alphanumeric ones
  if (bn) return 1;
  return compareCodePoints(a, b);
}

/**
 * Orders template versions by SemVer precedence: major, minor and patch numerically; a
 * pre-release below its release (`1.0.0-rc.1 < 1.0.0`); pre-release identifiers compared one by
 * one, numeric ones numerically and below alphanumeric ones, a shorter list first when all shared
 * ones are equal. A leading `v` and build metadata do not change precedence.
 *
 * Versions that are not strict SemVer (the template schema's pattern lets some through, e.g.
 * `1.2.3.4`) sort below every SemVer version, among themselves by code point. Versions of equal
 * precedence fall back to code-point order of the text, so the order is total and stable.
 *
 * @returns negative when `a` is older than `b`, positive when newer, 0 only for identical text.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) {
    if (pa) return 1;
    if (pb) return -1;
    return compareCodePoints(a, b);
  }
  for (let i = 0; i < 3; i++) {
    const c = compareDigits(pa.core[i] ?? '', pb.core[i] ?? '');
    if (c !== 0) return c;
  }
  const c = comparePrerelease(pa.prerelease, pb.prerelease);
  return c !== 0 ? c : compareCodePoints(a, b);
}

function comparePrerelease(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length; // release > pre-release
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareIdentifiers(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Sorts a copy of `versions` newest first. */
export function newestFirst(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => compareVersions(b, a));
}
