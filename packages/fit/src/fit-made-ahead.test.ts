import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileEmbeddingCache, InMemoryEmbeddingCache, TreeAgent } from '@treeagent/core';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { FittedEmbedder } from './fitted-embedder.js';
import { spaceFitter } from './space-fitter.js';
import { sample, syntheticTree, TableEmbedder } from './test-support/synthetic.js';

const directories: string[] = [];
function scratch(): string {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-fit-ahead-'));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** What `treeagent fit` does at deploy: the fitter's own fit, kept in `cacheDirectory`. */
async function fitAhead(cacheDirectory: string | false, tree = syntheticTree()) {
  return spaceFitter({ cacheDirectory, worker: false }).fit({
    tree,
    base: new TableEmbedder(),
    embeddingCache: new InMemoryEmbeddingCache(),
    signal: new AbortController().signal,
  });
}

/** A tree whose chunks differ from the fit's: one more node with chunks of its own. */
function changedTree() {
  const chunks = Array.from({ length: 6 }, (_, i) => sample(0, `0:extra:${i}`));
  return syntheticTree([
    {
      id: 20,
      type: 'emit',
      parent: 3,
      name: 'epsilon',
      chunks,
      emit: { message: { type: 'static', content: 'e' } },
    },
  ]);
}

describe('a fit made ahead is used from the first message', () => {
  test("new TreeAgent with a data directory finds the fit kept in the data directory's fits/", async () => {
    const data = scratch();
    const made = await fitAhead(join(data, 'fits'));
    const fitter = spaceFitter();
    const fit = vi.spyOn(fitter, 'fit');
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      embeddingCache: new FileEmbeddingCache(data),
      fit: true,
      spaceFitter: fitter,
    });
    await agent.ready();
    expect(agent.space()).toMatchObject({ state: 'fitted', cached: true, file: made.file });
    expect(fit).not.toHaveBeenCalled();
  });

  test('a fit of another version of the tree in the data directory is not used: the tree is fitted again, and kept there', async () => {
    const data = scratch();
    await fitAhead(join(data, 'fits'));
    const agent = new TreeAgent({
      tree: changedTree(),
      embedder: new TableEmbedder(),
      embeddingCache: new FileEmbeddingCache(data),
      fit: true,
      spaceFitter: spaceFitter({ worker: false }),
    });
    await agent.ready();
    expect(agent.space().state).toBe('fitting');
    expect(await agent.whenFitted()).toMatchObject({ state: 'fitted', cached: false });
    expect(readdirSync(join(data, 'fits')).filter((file) => file.endsWith('.json'))).toHaveLength(2);
  });

  test('a fit shipped with the project (fitFiles) is used while the tree is unchanged, and never rewritten', async () => {
    const project = scratch();
    const shipped = join(project, 'tree.fit.json');
    ((await fitAhead(false)).embedder as FittedEmbedder).save(shipped);
    const content = readFileSync(shipped, 'utf8');
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      fit: true,
      spaceFitter: spaceFitter({ fitFiles: [shipped] }),
    });
    await agent.ready();
    expect(agent.space()).toMatchObject({ state: 'fitted', cached: true, file: shipped });

    // The tree's chunks changed since the fit was shipped: a stale fit would route the new node badly.
    const changed = new TreeAgent({
      tree: changedTree(),
      embedder: new TableEmbedder(),
      fit: true,
      spaceFitter: spaceFitter({ fitFiles: [shipped], worker: false }),
    });
    await changed.ready();
    expect(changed.space().state).toBe('fitting');
    const status = await changed.whenFitted();
    expect(status).toMatchObject({ state: 'fitted', cached: false });
    expect(status).not.toHaveProperty('file');
    expect(readFileSync(shipped, 'utf8')).toBe(content);
  });

  test('cacheDirectory: false keeps the fit in memory even with a data directory', async () => {
    const data = scratch();
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      embeddingCache: new FileEmbeddingCache(data),
      fit: true,
      spaceFitter: spaceFitter({ cacheDirectory: false, worker: false }),
    });
    expect(await agent.whenFitted()).toMatchObject({ state: 'fitted', cached: false });
    expect(existsSync(join(data, 'fits'))).toBe(false);
  });
});
