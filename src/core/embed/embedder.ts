/** What turns texts into vectors: an endpoint on this machine (endpoint.ts) or a model folder run in process (folder.ts). */
export interface Embedder {
  /** Names the vectors it makes (protocol or folder, model, its file's size and date): another name re-embeds. */
  readonly model: string;
  /** One unit-length vector per text, in order; rejects with a clear reason (the leg retries later). */
  embed(texts: string[], options?: { timeoutMs?: number }): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Scales a vector to unit length (a zero vector stays zero). */
export function normalised(values: ArrayLike<number>): Float32Array {
  const v = Float32Array.from(values);
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}
