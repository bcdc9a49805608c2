/**
 * The closest of a few known words to one typed, for "did you mean …?": an
 * edit distance in which a swap of two neighbouring letters counts as one edit
 * (optimal string alignment), as the commonest slips are a letter missed,
 * doubled, replaced or two swapped.
 */

/** @internal */
export function editDistance(a: string, b: string): number {
  // d[i][j]: edits from the first i letters of a to the first j of b.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** No field name is longer; a longer word is no slip of one, and comparing it would cost time in proportion to its length. */
const LONGEST_WORD = 64;

/**
 * The known word nearest to `typed`, when it is near enough to be a slip: at
 * most a third of its letters changed (at least one), compared without case.
 * Ties go to the first known word.
 */
export function nearestWord(typed: string, known: readonly string[]): string | undefined {
  if (typed.length > LONGEST_WORD) return undefined;
  const lower = typed.toLowerCase();
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: { word: string; distance: number } | undefined;
  for (const word of known) {
    // The distance is at least the difference in length.
    if (Math.abs(word.length - typed.length) > limit) continue;
    const distance = editDistance(lower, word.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}
