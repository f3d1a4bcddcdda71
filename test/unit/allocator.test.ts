import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALLOCATOR_ENV, withAllocatorEnv } from '../../src/core/allocator.js';

test("an engine is started with the allocator settings, a user's own winning", () => {
  assert.deepEqual(Object.fromEntries(Object.keys(ALLOCATOR_ENV).map((name) => [name, withAllocatorEnv({ PATH: '/bin' })[name]])), ALLOCATOR_ENV);
  const own = withAllocatorEnv({ MALLOC_ARENA_MAX: '4', PATH: '/bin' });
  assert.equal(own.MALLOC_ARENA_MAX, '4');
  assert.equal(own.PATH, '/bin');
  assert.equal(own.MALLOC_MMAP_THRESHOLD_, ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_);
});

test("a user's GLIBC_TUNABLES list keeps its settings and gains the huge pages it does not name", () => {
  assert.equal(withAllocatorEnv({ GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }).GLIBC_TUNABLES, 'glibc.malloc.tcache_count=0:glibc.malloc.hugetlb=1');
  // a choice of the user's own about huge pages stands
  assert.equal(withAllocatorEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }).GLIBC_TUNABLES, 'glibc.malloc.hugetlb=0');
  assert.equal(
    withAllocatorEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=2:glibc.malloc.arena_max=1' }).GLIBC_TUNABLES,
    'glibc.malloc.hugetlb=2:glibc.malloc.arena_max=1',
  );
});
