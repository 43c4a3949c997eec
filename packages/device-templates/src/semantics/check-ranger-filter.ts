import { createRequire } from 'node:module';
import type { SemanticCheck } from './semantic-reporter.js';
import { errorMessage, isObject } from '@triad/common';

const PATTERN_FIELDS = ['deviceID', 'vendorID', 'description'] as const;

/** Why a pattern cannot be used by the discovery service, or undefined when RE2 runs it. */
export type PatternVerdict = { readonly kind: 'invalid' | 'unsupported'; readonly reason: string } | undefined;

/** The part of re2-wasm this module calls: the constructor throws on a pattern RE2 rejects. */
interface Re2Module {
  readonly RE2: new (pattern: string, flags: string) => unknown;
}

let re2: Re2Module | undefined;

// re2-wasm takes ~25 ms to load and ~15 ms more to compile its first pattern, so it is required
// (it is CommonJS) when a template first has a rangerFilter pattern, not with the package.
function loadRe2(): Re2Module {
  re2 ??= createRequire(import.meta.url)('re2-wasm') as Re2Module;
  return re2;
}

const verdicts = new Map<string, PatternVerdict>();
const MAX_CACHED_VERDICTS = 256;

/**
 * Compiles `pattern` the way the discovery service matches it, with RE2, and tells whether it is
 * not a regular expression at all (`invalid`) or JavaScript syntax RE2 cannot run such as
 * lookaround or backreferences (`unsupported`). Verdicts are cached per pattern (at most 256);
 * a compiled pattern is freed as soon as it has been judged.
 */
export function checkPatternForRe2(pattern: string): PatternVerdict {
  if (verdicts.has(pattern)) return verdicts.get(pattern);
  const verdict = compile(pattern);
  if (verdicts.size >= MAX_CACHED_VERDICTS) verdicts.clear();
  verdicts.set(pattern, verdict);
  return verdict;
}

function compile(pattern: string): PatternVerdict {
  try {
    const compiled = new (loadRe2().RE2)(pattern, 'u') as { wrapper?: { delete?: () => void } };
    // Only the verdict is needed: give the pattern's WebAssembly memory back at once.
    compiled.wrapper?.delete?.();
    return undefined;
  } catch (re2Error) {
    const reason = re2Reason(re2Error, pattern);
    try {
      new RegExp(pattern, 'u');
    } catch {
      return { kind: 'invalid', reason };
    }
    return { kind: 'unsupported', reason };
  }
}

// re2-wasm messages read `Invalid regular expression: /<pattern>/u: <reason>`; keep the reason.
function re2Reason(error: unknown, pattern: string): string {
  const message = errorMessage(error);
  const prefix = `Invalid regular expression: /${pattern}/u: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/**
 * Checks that the `rangerFilter` patterns (`deviceID`, `vendorID`, `description`) compile under
 * RE2, the engine the discovery service matches them with.
 */
export const checkRangerFilter: SemanticCheck = (model, reporter) => {
  const filter = model.root['rangerFilter'];
  if (!isObject(filter)) return;
  for (const field of PATTERN_FIELDS) {
    const pattern = filter[field];
    if (typeof pattern !== 'string' || pattern.length === 0) continue;
    const verdict = checkPatternForRe2(pattern);
    if (verdict === undefined) continue;
    reporter.report(
      verdict.kind === 'invalid' ? 'DT_WARN_SEM_RANGER_REGEX_INVALID' : 'DT_WARN_SEM_RANGER_REGEX_UNSUPPORTED',
      ['rangerFilter', field],
      {
        message:
          verdict.kind === 'invalid'
            ? `The rangerFilter.${field} pattern is not a valid regular expression (${verdict.reason}); discovery ` +
              `cannot match devices with it.`
            : `The rangerFilter.${field} pattern is valid JavaScript but RE2, which discovery matches with, rejects ` +
              `it ` +
              `(${verdict.reason}); rewrite it without lookaround or backreferences.`,
        found: pattern,
        allowed: 'a regular expression RE2 accepts',
      },
    );
  }
};
