/**
 * A small deterministic generator (xorshift32) for tests that try many random cases: the same
 * seed gives the same sequence, so a failing case can be named by its seed. `next(n)` is an
 * integer in `0..n-1`.
 */
export function seededRandom(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}
