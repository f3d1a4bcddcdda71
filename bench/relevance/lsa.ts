/**
 * LSA over chunks for the semantic candidates: the product's model (src/core/semantic/lsa.ts) trained on one bag per
 * chunk instead of per session. Vectors come out unit length; `query` folds new token lists in.
 */
import { fold, trainLsa, type Bag } from '../../src/core/semantic/lsa.js';

export interface Lsa {
  vectors: number[][];
  query(tokens: string[]): number[];
}

export function lsaModel(docs: string[][], k: number): Lsa {
  const words = new Map<string, number>();
  const bag = (tokens: string[], grow: boolean): Bag => {
    const counts = new Map<number, number>();
    for (const t of tokens) {
      let id = words.get(t);
      if (id === undefined && grow) words.set(t, (id = words.size));
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return { terms: Uint32Array.from(counts.keys()), counts: Uint16Array.from(counts.values()) };
  };
  const bags = docs.map((d) => bag(d, true));
  const model = trainLsa(bags, words.size, k);
  const vector = (b: Bag): number[] => Array.from(fold(b, model) ?? new Float32Array(model.k));
  return { vectors: bags.map(vector), query: (tokens) => vector(bag(tokens, false)) };
}
