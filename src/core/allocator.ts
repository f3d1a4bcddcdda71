/**
 * How a process that loads and serves the index is started: with the C allocator told to give memory back. Node's
 * array buffers (the postings, the bytes read from transcripts and the archive) come from the C allocator, which on
 * Linux (glibc) keeps what a long load frees in per-thread arenas and below a threshold that rises as buffers are freed,
 * so the resident memory of a first load rose with every checkpoint although the heap did not. Measured, one cold
 * first load each: at 10,000 real-shaped sessions (4.3 GB) a peak of 1,504 MB without these settings and 1,252 MB with
 * them; at 20,000 (10.5 GB) 1,908 and 1,408 MB, the median sample 1,340 and 943 MB.
 *
 * Its large buffers are also asked to lie in huge pages where the kernel gives them on request (transparent huge pages
 * in "madvise" mode): a page touched first costs about 12.5 µs on a virtual machine, and a warm start touches the
 * snapshot's header and the semantic leg's file whole (42 MB at 10,000 sessions), a first load its postings and
 * archive lines again and again. Other C libraries ignore the variables. Settings a user gives win.
 */

/**
 * glibc's settings: two arenas; buffers of 128 KB and more mapped on their own (given back when freed); the top trimmed;
 * memory asked for in huge pages where the kernel has them (`glibc.malloc.hugetlb=1`, glibc 2.35 and later).
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
};

/** `env` with the allocator settings added where it has none of its own (a user's GLIBC_TUNABLES list is added to). */
export function withAllocatorEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(ALLOCATOR_ENV)) {
    const own = out[name];
    if (own === undefined || own === '') out[name] = value;
    else if (name === 'GLIBC_TUNABLES') out[name] = withTunables(own, value);
  }
  return out;
}

/** A colon-separated list of `name=value` tunables with those of `added` whose names it lacks. */
function withTunables(own: string, added: string): string {
  const names = new Set(own.split(':').map((t) => t.split('=')[0]));
  return [own, ...added.split(':').filter((t) => !names.has(t.split('=')[0]))].join(':');
}
