/**
 * Latent semantic analysis for the semantic candidates: TF-IDF of token lists, reduced to k dimensions by a
 * randomized truncated SVD (range finder with two power iterations, then the eigen-decomposition of the small
 * projected matrix by Jacobi rotations). Vectors come out unit length; `query` folds new token lists in.
 */
export interface Lsa {
  vectors: number[][];
  query(tokens: string[]): number[];
}

type Sparse = { idx: number[]; val: number[] }[];

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const unit = (v: number[]): number[] => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};

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
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p];
          const akq = a[k * l + q];
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k];
          const aqk = a[q * l + k];
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p];
          const vkq = v[k * l + q];
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
  }
  return { vectors: v, values: Array.from({ length: l }, (_, i) => a[i * l + i]) };
}

export function lsaModel(docs: string[][], k: number): Lsa {
  const terms = new Map<string, number>();
  const df: number[] = [];
  for (const doc of docs)
    for (const t of new Set(doc)) {
      if (!terms.has(t)) terms.set(t, terms.size);
      df[terms.get(t)!] = (df[terms.get(t)!] ?? 0) + 1;
    }
  const m = docs.length;
  const n = terms.size;
  const idf = df.map((d) => Math.log(m / d));
  const tfidf = (tokens: string[]): { idx: number[]; val: number[] } => {
    const counts = new Map<number, number>();
    for (const t of tokens) {
      const id = terms.get(t);
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const idx = [...counts.keys()];
    const val = unit(idx.map((id) => (1 + Math.log(counts.get(id)!)) * idf[id]));
    return { idx, val };
  };
  const a: Sparse = docs.map(tfidf);
  const l = Math.min(k + 10, m, n);
  const random = seeded(7);
  // Y = A Ω, then two power iterations Y = A (Aᵀ Y)
  let omega: Float64Array = new Float64Array(n * l).map(() => random() * 2 - 1);
  const times = (right: Float64Array): Float64Array => {
    const y = new Float64Array(m * l);
    a.forEach((row, i) =>
      row.idx.forEach((j, p) => {
        for (let c = 0; c < l; c++) y[i * l + c] += row.val[p] * right[j * l + c];
      }),
    );
    return y;
  };
  const transposeTimes = (y: Float64Array): Float64Array => {
    const z = new Float64Array(n * l);
    a.forEach((row, i) =>
      row.idx.forEach((j, p) => {
        for (let c = 0; c < l; c++) z[j * l + c] += row.val[p] * y[i * l + c];
      }),
    );
    return z;
  };
  let y = times(omega);
  for (let it = 0; it < 2; it++) {
    orthonormalize(y, m, l);
    omega = transposeTimes(y);
    y = times(omega);
  }
  orthonormalize(y, m, l);
  // B = Qᵀ A (l × n, kept as n × l), then B Bᵀ = U_B S² U_Bᵀ
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
  // term projection V = Bᵀ U_B S⁻¹ (n × k): a document's vector is its TF-IDF row times V
  const proj = new Float64Array(n * k);
  for (let j = 0; j < n; j++)
    order.forEach(([value, col], c) => {
      const s = Math.sqrt(Math.max(value, 1e-12));
      let sum = 0;
      for (let p = 0; p < l; p++) sum += b[j * l + p] * ub[p * l + col];
      proj[j * k + c] = sum / s;
    });
  const fold = (row: { idx: number[]; val: number[] }): number[] => {
    const out = new Array<number>(k).fill(0);
    row.idx.forEach((j, p) => {
      for (let c = 0; c < k; c++) out[c] += row.val[p] * proj[j * k + c];
    });
    return unit(out);
  };
  return { vectors: a.map(fold), query: (tokens) => fold(tfidf(tokens)) };
}
