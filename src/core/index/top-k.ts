/**
 * The best `k` of `count` documents in order (higher score first, then higher recency), by a binary min-heap over
 * typed arrays: O(n log k), no allocation per candidate.
 */
export function topK(items: Int32Array, count: number, k: number, scores: Float64Array, recency: Float64Array): number[] {
  const better = (a: number, b: number): boolean => scores[a] > scores[b] || (scores[a] === scores[b] && recency[a] > recency[b]);
  const byRank = (a: number, b: number): number => (better(a, b) ? -1 : better(b, a) ? 1 : 0);
  if (k <= 0 || count === 0) return [];
  if (k >= count) return Array.from(items.subarray(0, count)).sort(byRank);
  const heap = new Int32Array(k);
  let size = 0;
  for (let i = 0; i < count; i++) {
    const item = items[i];
    if (size < k) {
      // sift up: the heap's root is the worst of the best k so far
      let at = size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!better(heap[parent], item)) break;
        heap[at] = heap[parent];
        at = parent;
      }
      heap[at] = item;
    } else if (better(item, heap[0])) {
      let at = 0;
      for (;;) {
        const l = 2 * at + 1;
        if (l >= k) break;
        const r = l + 1;
        const worst = r < k && better(heap[l], heap[r]) ? r : l;
        if (!better(item, heap[worst])) break;
        heap[at] = heap[worst];
        at = worst;
      }
      heap[at] = item;
    }
  }
  return Array.from(heap).sort(byRank);
}
