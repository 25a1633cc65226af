import { afterEach } from 'vitest';

/**
 * A list of cleanups (close a store, drop a schema, stop a process, remove a directory) run after
 * each test of the file that calls this at its top level, last registered first; a cleanup's own
 * failure fails the test. The tests of every package share it (imported by relative path).
 */
export function cleanupsAfterEach(): (() => unknown)[] {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}
