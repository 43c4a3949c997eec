import { EXPRESSION_LIMITS } from './expression-limits.js';

/**
 * The backtracking cost model behind the native fast path of regexes (see `analyseRegex`): a
 * summary per part of a pattern, how parts combine, and the longest input whose bound stays
 * within `EXPRESSION_LIMITS.nativeRegexStepBudget`.
 */
export interface Cost {
  /** Unbounded quantifiers along one path: each multiplies the paths by up to (n + 1). */
  readonly degree: number;
  /** Constant multiplier of the paths (alternatives, optional parts, bounded repeats). */
  readonly factor: number;
  /** Characters consumed at most by the bounded parts. */
  readonly fixed: number;
  /** Pattern steps along one path. */
  readonly terms: number;
  /** Holds a quantifier or an alternation: repeating it is not bounded by this model. */
  readonly branching: boolean;
}

export const EMPTY: Cost = { degree: 0, factor: 1, fixed: 0, terms: 0, branching: false };
export const ATOM: Cost = { degree: 0, factor: 1, fixed: 1, terms: 1, branching: false };
export const ASSERTION: Cost = { degree: 0, factor: 1, fixed: 0, terms: 1, branching: false };

/** `a` followed by `b`: their choices multiply. */
export function sequenceCost(a: Cost, b: Cost): Cost {
  return {
    degree: a.degree + b.degree,
    factor: a.factor * b.factor,
    fixed: a.fixed + b.fixed,
    terms: a.terms + b.terms,
    branching: a.branching || b.branching,
  };
}

/** `a|b|...`: the paths of the alternatives add up. */
export function alternationCost(alternatives: readonly Cost[]): Cost {
  if (alternatives.length === 1) return alternatives[0]!;
  return {
    degree: Math.max(...alternatives.map((a) => a.degree)),
    factor: alternatives.reduce((sum, a) => sum + a.factor, 0),
    fixed: Math.max(...alternatives.map((a) => a.fixed)),
    terms: alternatives.reduce((sum, a) => sum + a.terms, 0),
    branching: true,
  };
}

/**
 * `atom{min,max}` (`?`, `*`, `+` included), or undefined when the model cannot bound it: a body
 * that itself branches repeated more than once (`(a+)+`, `(a|b)*`, `(.*a){20}`).
 */
export function repetitionCost(atom: Cost, min: number, max: number): Cost | undefined {
  if (max <= 1) {
    const optional = min === 0 ? 1 : 0;
    return {
      ...atom,
      factor: atom.factor + optional,
      terms: atom.terms + 1,
      branching: atom.branching || optional === 1,
    };
  }
  if (atom.branching || atom.degree > 0) return undefined;
  if (atom.fixed === 0) {
    // A body of assertions only: V8 stops the loop after one empty iteration.
    return { ...atom, factor: atom.factor + 1, terms: atom.terms + 1, branching: true };
  }
  if (max === Infinity)
    return { degree: 1, factor: 1, fixed: min * atom.fixed, terms: atom.terms + 1, branching: true };
  return { degree: 0, factor: max - min + 1, fixed: max * atom.fixed, terms: max * atom.terms + 1, branching: true };
}

/**
 * An upper bound of the native engine's steps on an input of `n` code units: start positions ×
 * paths × steps per path. A path is a choice among the constant alternatives (`factor`) and an
 * iteration count for each of the `degree` unbounded quantifiers on it; each iteration consumes
 * at least one character, so the counts sum to at most n: C(n + degree, degree) tuples.
 */
export function nativeSteps(cost: Cost, anchored: boolean, n: number): number {
  const starts = anchored ? 1 : n + 1;
  let paths = cost.factor;
  for (let i = 1; i <= cost.degree; i++) paths *= (n + i) / i;
  const consumed = cost.degree > 0 ? n : Math.min(n, cost.fixed);
  return starts * paths * (cost.terms + consumed + 1);
}

/** The longest input within the step budget: Infinity when any fits, -1 when none does. */
export function maxNativeLength(cost: Cost, anchored: boolean): number {
  const budget = EXPRESSION_LIMITS.nativeRegexStepBudget;
  const fits = (n: number) => nativeSteps(cost, anchored, n) <= budget;
  if (!fits(0)) return -1;
  let low = 0;
  let high = 1;
  while (fits(high)) {
    if (high >= 2 ** 31) return Infinity;
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}
