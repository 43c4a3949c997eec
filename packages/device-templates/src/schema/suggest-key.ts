/**
 * Picks the candidate a person most likely meant when they typed `input`: the same word in
 * another case or with other separators (`templateID` -> `templateId`, `readOnly` ->
 * `read-only`), else the nearest candidate by edit distance (case-insensitive, a swap of two
 * neighbouring letters counts as one edit) when it is close enough for the word's length.
 * Ties go to the candidate listed first. A candidate equal to the input is never suggested.
 * Returns undefined when nothing is close.
 */
export function suggestKey(input: string, candidates: readonly string[]): string | undefined {
  if (input.length === 0 || candidates.length === 0) return undefined;
  const lower = input.toLowerCase();
  const bare = normalise(input);
  // The input itself is no suggestion.
  const others = candidates.filter((candidate) => candidate !== input);
  for (const candidate of others) if (candidate.toLowerCase() === lower) return candidate;
  if (bare.length > 0) for (const candidate of others) if (normalise(candidate) === bare) return candidate;

  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of others) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= allowedEdits(Math.min(input.length, best.length)) ? best : undefined;
}

/** Edits tolerated for a word of this length: short words must be nearly exact. */
function allowedEdits(length: number): number {
  if (length <= 3) return 1;
  if (length <= 6) return 2;
  return 3;
}

function normalise(word: string): string {
  return word.toLowerCase().replace(/[-_\s.]/g, '');
}

/**
 * Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps,
 * each costing 1. With `max`, gives up early and returns `max + 1` once the distance must exceed it.
 */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] ?? 0;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    let rowMin = Number.POSITIVE_INFINITY;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, at(i - 2, j - 2) + 1);
      d[i * cols + j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
  }
  return at(rows - 1, cols - 1);
}
