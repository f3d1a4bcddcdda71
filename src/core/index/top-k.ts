/** The best `k` items in order, by a binary heap: O(n log k) instead of sorting every candidate. */
export function topK(items: number[], k: number, better: (a: number, b: number) => boolean): number[] {
  if (k <= 0) return [];
  if (k >= items.length) return [...items].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
  // min-heap of the k best so far: heap[0] is the worst of them
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean => better(b, a);
  const up = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (better(item, heap[0])) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
}
