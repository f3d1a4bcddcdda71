/**
 * The ranking order of candidate documents: higher score first, then higher recency, then the earlier candidate (so
 * the order is total, and a heap's best `k` are exactly the first `k` of a full sort). By a binary min-heap over typed
 * arrays: O(n log k), no allocation per candidate.
 */
type Before = (a: number, b: number) => boolean;

/** `before(a, b)`: whether candidate `a` (a position in `items`) ranks above candidate `b`. */
function order(items: Int32Array, scores: Float64Array, recency: Float64Array): Before {
  return (a, b) => {
    const x = items[a];
    const y = items[b];
    return scores[x] > scores[y] || (scores[x] === scores[y] && (recency[x] > recency[y] || (recency[x] === recency[y] && a < b)));
  };
}

/** The best `k` of the first `count` documents of `items`, in ranking order. */
export function topK(items: Int32Array, count: number, k: number, scores: Float64Array, recency: Float64Array): number[] {
  if (k <= 0 || count === 0) return [];
  const better = order(items, scores, recency);
  const byRank = (a: number, b: number): number => (better(a, b) ? -1 : 1);
  if (k >= count)
    return Array.from({ length: count }, (_, i) => i)
      .sort(byRank)
      .map((i) => items[i]);
  const heap = new Int32Array(k);
  let size = 0;
  for (let i = 0; i < count; i++) {
    if (size < k) {
      // sift up: the heap's root is the worst of the best k so far
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!better(heap[parent], i)) break;
        heap[at] = heap[parent];
        at = parent;
      }
      heap[at] = i;
    } else if (better(i, heap[0])) {
      let at = 0;
      for (;;) {
        const l = 2 * at + 1;
        if (l >= k) break;
        const r = l + 1;
        const worst = r < k && better(heap[l], heap[r]) ? r : l;
        if (!better(i, heap[worst])) break;
        heap[at] = heap[worst];
        at = worst;
      }
      heap[at] = i;
    }
  }
  return Array.from(heap)
    .sort(byRank)
    .map((i) => items[i]);
}

/**
 * The place (0 first) in the full ranking order of each of `docs` found among the first `count` of `items`, without
 * sorting them all: the wanted ones are sorted, and each other candidate adds one to those it ranks above (a binary
 * search among them). O(n log m) for m wanted documents.
 */
export function ranksOf(items: Int32Array, count: number, docs: ReadonlySet<number>, scores: Float64Array, recency: Float64Array): Map<number, number> {
  const isWanted = new Uint8Array(scores.length);
  for (const doc of docs) if (doc < isWanted.length) isWanted[doc] = 1;
  const wanted: number[] = [];
  for (let i = 0; i < count; i++) if (isWanted[items[i]]) wanted.push(i);
  const ranks = new Map<number, number>();
  if (!wanted.length) return ranks;
  const better = order(items, scores, recency);
  wanted.sort((a, b) => (better(a, b) ? -1 : 1));
  const last = wanted.length - 1;
  // above[p]: candidates ranking above wanted[p] and below wanted[p - 1]
  const above = new Int32Array(wanted.length + 1);
  for (let i = 0; i < count; i++) {
    if (isWanted[items[i]]) continue;
    // most rank above the first wanted or below the last: a binary search for the others
    if (!better(i, wanted[last])) continue;
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (better(i, wanted[mid])) hi = mid;
      else lo = mid + 1;
    }
    above[lo]++;
  }
  let before = 0;
  wanted.forEach((i, p) => {
    before += above[p];
    ranks.set(items[i], before + p);
  });
  return ranks;
}

/**
 * The places (0 first, in that order) of the documents of `asked` that are candidates but not among `shown` (a ranking
 * cut at its limit): those a fusion with other lists needs beside the shown ones. Unknown documents (undefined) and
 * documents that are no candidates are left out.
 */
export function ranksBelow(
  items: Int32Array,
  count: number,
  shown: readonly number[],
  asked: readonly (number | undefined)[],
  scores: Float64Array,
  recency: Float64Array,
): [number, number][] {
  const seen = new Set(shown);
  const below = new Set<number>();
  for (const doc of asked) if (doc !== undefined && !seen.has(doc)) below.add(doc);
  return [...ranksOf(items, count, below, scores, recency)].sort((a, b) => a[1] - b[1]);
}
