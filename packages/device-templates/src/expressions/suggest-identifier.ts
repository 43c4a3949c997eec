/**
 * The candidate a misspelt name most likely meant (`datapont` → `datapoint`, `toFixd` →
 * `toFixed`), or undefined when none is close: at most 1 edit for names up to 4 characters,
 * 2 up to 8, 3 beyond. Case differences count as half an edit.
 */
export function suggestIdentifier(found: string, candidates: Iterable<string>): string | undefined {
  const budget = found.length <= 4 ? 1 : found.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === found) continue;
    const distance = editDistance(found, candidate);
    if (distance <= budget && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance with transpositions; a change of case only costs 0.5. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const x = a[i - 1]!;
      const y = b[j - 1]!;
      const cost = x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 0.5 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
