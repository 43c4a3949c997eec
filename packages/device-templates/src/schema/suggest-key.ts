/**
 * Suggests the known key a person most likely meant when they wrote `found`
 * (`unitConfig` -> `unitsConfig`, `templateID` -> `templateId`).
 *
 * Compares case-insensitively by edit distance (Damerau: a swap of two neighbours costs 1).
 * Returns undefined when nothing is close enough: at most 1 edit for keys up to 4 characters,
 * 2 up to 10, and 3 beyond; a key that differs only in case always matches.
 */
export function suggestKey(found: string, candidates: readonly string[]): string | undefined {
  const needle = found.toLowerCase();
  const budget = found.length <= 4 ? 1 : found.length <= 10 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === found) continue;
    const distance = editDistance(needle, candidate.toLowerCase(), budget);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= budget ? best : undefined;
}

/** Optimal-string-alignment distance, giving up (returning max + 1) once it exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prevPrev[j - 2]! + 1);
      row.push(d);
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length]!;
}
