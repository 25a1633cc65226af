import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder } from '@treeagent/core';
import { describeSpaceFitter } from '@treeagent/core/conformance';
import { spaceFitter } from './space-fitter.js';
import { englishIntentTree } from './test-support/intent-trees.js';
import { syntheticTree, TableEmbedder } from './test-support/synthetic.js';

// `spaceFitter()` as the CLI passes it (fits cached in a directory, math in a worker thread)…
describeSpaceFitter('spaceFitter({ cacheDirectory })', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-fit-conformance-'));
  return {
    fitter: spaceFitter({ cacheDirectory: directory }),
    tree: syntheticTree(),
    base: new TableEmbedder(),
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

// …and as a library user may (no cache directory, on the calling thread).
describeSpaceFitter(
  'spaceFitter({ worker: false })',
  async () => ({
    fitter: spaceFitter({ worker: false }),
    tree: syntheticTree(),
    base: new TableEmbedder(),
    dispose: async () => {},
  }),
  {
    skip: [
      {
        reason: 'no cacheDirectory: fits live only as long as the agent that made them',
        tests: ['cached is null before a fit and, after it, the same space read back (cached: true)'],
      },
    ],
  },
);

// The cascade over the real USE-lite student and USE-lite (@treeagent/embedder-use is installed
// here): an interim space (the student's, while USE-lite's fit is made) and a second space.
describeSpaceFitter("spaceFitter({ base: 'cascade' })", async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-fit-conformance-cascade-'));
  return {
    fitter: spaceFitter({ cacheDirectory: directory, base: 'cascade' }),
    tree: englishIntentTree(),
    base: new HashedEmbedder(),
    baseIsDefault: true,
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});
