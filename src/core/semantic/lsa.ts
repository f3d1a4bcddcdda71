/**
 * Latent semantic analysis learned from the user's own archive: each session's bag of words (its title, prompts and
 * last reply) weighted by TF-IDF, reduced to `k` dimensions by a randomized truncated SVD (a range finder with two
 * power iterations, then the eigen-decomposition of the small projected matrix by Jacobi rotations). Words that occur
 * together across sessions end up near each other, so "datastore" finds a session about PostgreSQL where the words
 * were used together elsewhere. Pure functions over typed arrays: they run on a worker thread or inline.
 */

/** A session's words: vocabulary ids and how often each occurs. */
export interface Bag {
  terms: Uint32Array;
  counts: Uint16Array;
}

/** What training learns: per vocabulary id, its idf and its k-dimensional projection (row-major, vocab × k). */
export interface LsaModel {
  k: number;
  idf: Float32Array;
  projection: Float32Array;
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Orthonormal columns of Y (m × l, row-major) by modified Gram-Schmidt. */
function orthonormalize(y: Float64Array, m: number, l: number): void {
  for (let j = 0; j < l; j++) {
    for (let p = 0; p < j; p++) {
      let d = 0;
      for (let i = 0; i < m; i++) d += y[i * l + j] * y[i * l + p];
      for (let i = 0; i < m; i++) y[i * l + j] -= d * y[i * l + p];
    }
    let n = 0;
    for (let i = 0; i < m; i++) n += y[i * l + j] ** 2;
    n = Math.sqrt(n) || 1;
    for (let i = 0; i < m; i++) y[i * l + j] /= n;
  }
}

/** Eigenvectors (columns) and eigenvalues of a symmetric l × l matrix, by cyclic Jacobi rotations. */
function jacobi(a: Float64Array, l: number): { vectors: Float64Array; values: number[] } {
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  const rotate = (m: Float64Array, i: number, j: number, c: number, s: number): void => {
    const x = m[i];
    const y = m[j];
    m[i] = c * x - s * y;
    m[j] = s * x + c * y;
  };
  for (let sweep = 0; sweep < 30; sweep++) {
    let off = 0;
    for (let p = 0; p < l; p++) for (let q = p + 1; q < l; q++) off += a[p * l + q] ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < l; p++)
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q];
        if (Math.abs(apq) < 1e-15) continue;
        const theta = (a[q * l + q] - a[p * l + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) rotate(a, k * l + p, k * l + q, c, s);
        for (let k = 0; k < l; k++) rotate(a, p * l + k, q * l + k, c, s);
        for (let k = 0; k < l; k++) rotate(v, k * l + p, k * l + q, c, s);
      }
  }
  return { vectors: v, values: Array.from({ length: l }, (_, i) => a[i * l + i]) };
}

/** A bag's unit-length TF-IDF weights (sub-linear term frequency), in its terms' order. */
export function tfidf(bag: Bag, idf: Float32Array): Float64Array {
  const out = new Float64Array(bag.terms.length);
  let norm = 0;
  for (let p = 0; p < bag.terms.length; p++) {
    const w = (1 + Math.log(bag.counts[p])) * (idf[bag.terms[p]] ?? 0);
    out[p] = w;
    norm += w * w;
  }
  norm = Math.sqrt(norm) || 1;
  for (let p = 0; p < out.length; p++) out[p] /= norm;
  return out;
}

/** Learns the model from the bags of a vocabulary of `vocabulary` words. */
export function trainLsa(bags: Bag[], vocabulary: number, k: number): LsaModel {
  const m = bags.length;
  const n = vocabulary;
  const df = new Uint32Array(n);
  for (const bag of bags) for (const t of bag.terms) df[t]++;
  // a word in one session only tells nothing about other sessions: weight 0
  const idf = Float32Array.from(df, (d) => (d > 1 ? Math.log(m / d) : 0));
  const rows = bags.map((bag) => tfidf(bag, idf));
  const l = Math.max(1, Math.min(k + 10, m, n));
  const random = seeded(7);
  const times = (right: Float64Array): Float64Array => {
    const y = new Float64Array(m * l);
    for (let i = 0; i < m; i++) {
      const { terms } = bags[i];
      for (let p = 0; p < terms.length; p++) {
        const w = rows[i][p];
        if (!w) continue;
        const j = terms[p] * l;
        for (let c = 0; c < l; c++) y[i * l + c] += w * right[j + c];
      }
    }
    return y;
  };
  const transposeTimes = (y: Float64Array): Float64Array => {
    const z = new Float64Array(n * l);
    for (let i = 0; i < m; i++) {
      const { terms } = bags[i];
      for (let p = 0; p < terms.length; p++) {
        const w = rows[i][p];
        if (!w) continue;
        const j = terms[p] * l;
        for (let c = 0; c < l; c++) z[j + c] += w * y[i * l + c];
      }
    }
    return z;
  };
  // Y = A Ω, then two power iterations Y = A (Aᵀ Y)
  let y = times(new Float64Array(n * l).map(() => random() * 2 - 1));
  for (let it = 0; it < 2; it++) {
    orthonormalize(y, m, l);
    y = times(transposeTimes(y));
  }
  orthonormalize(y, m, l);
  // B = Qᵀ A (kept as n × l), then B Bᵀ = U_B S² U_Bᵀ
  const b = transposeTimes(y);
  const bbt = new Float64Array(l * l);
  for (let j = 0; j < n; j++)
    for (let p = 0; p < l; p++) {
      const x = b[j * l + p];
      if (x) for (let q = 0; q < l; q++) bbt[p * l + q] += x * b[j * l + q];
    }
  const { vectors: ub, values } = jacobi(bbt, l);
  const order = values
    .map((v, i) => [v, i] as const)
    .sort((x, z) => z[0] - x[0])
    .slice(0, k);
  const dims = order.length;
  // term projection V = Bᵀ U_B S⁻¹ (n × dims): a bag's vector is its TF-IDF row times V
  const projection = new Float32Array(n * dims);
  for (let j = 0; j < n; j++)
    order.forEach(([value, col], c) => {
      let sum = 0;
      for (let p = 0; p < l; p++) sum += b[j * l + p] * ub[p * l + col];
      projection[j * dims + c] = sum / Math.sqrt(Math.max(value, 1e-12));
    });
  return { k: dims, idf, projection };
}

/** A bag's unit vector under a model (its terms are model ids); undefined when none of its words carries weight. */
export function fold(bag: Bag, model: LsaModel): Float32Array | undefined {
  const { k, projection, idf } = model;
  const weights = tfidf(bag, idf);
  const out = new Float32Array(k);
  let any = false;
  for (let p = 0; p < bag.terms.length; p++) {
    const w = weights[p];
    if (!w) continue;
    any = true;
    const j = bag.terms[p] * k;
    for (let c = 0; c < k; c++) out[c] += w * projection[j + c];
  }
  if (!any) return undefined;
  let norm = 0;
  for (let c = 0; c < k; c++) norm += out[c] * out[c];
  norm = Math.sqrt(norm) || 1;
  for (let c = 0; c < k; c++) out[c] /= norm;
  return out;
}
