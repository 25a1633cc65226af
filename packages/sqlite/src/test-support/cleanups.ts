import { join } from 'node:path';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import { tempDir } from './temp-dir.js';

/**
 * Cleanups run after each test of the file that calls it, last registered first; `freshFile`
 * gives a path in a new temporary directory removed after the test.
 */
export function useCleanups() {
  const cleanups = cleanupsAfterEach();
  return {
    cleanups,
    /** `relative` (default `treeagent.db`) inside a fresh temporary directory. */
    freshFile(relative = 'treeagent.db'): string {
      const { dir, remove } = tempDir();
      cleanups.push(remove);
      return join(dir, relative);
    },
  };
}
