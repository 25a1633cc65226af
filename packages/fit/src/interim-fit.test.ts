import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { HashedEmbedder, InMemoryEmbeddingCache, type SpaceStatus, TreeAgent } from '@treeagent/core';
import { afterEach, describe, expect, test } from 'vitest';
import { INTERIM_FIT_MIN_UNEMBEDDED, interimThreshold } from './interim-fit.js';
import { spaceFitter } from './space-fitter.js';
import { englishIntentTree } from './test-support/intent-trees.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
const temporary = () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-interim-'));
  directories.push(directory);
  return directory;
};

const HASHED = new HashedEmbedder().id;
const STUDENT_BASE = `concat(use-lite-student-en@1*2,${HASHED}*1)`;
const USE_BASE = `concat(use-lite-en@0.2.0*2,${HASHED}*1)`;

/** An agent on the English intent tree (128 chunks), its log lines, and its status at each line. */
function agentWith(options: {
  embeddingCache: InMemoryEmbeddingCache;
  fitter: ReturnType<typeof spaceFitter>;
}) {
  const lines: { message: string; status: SpaceStatus }[] = [];
  const agent: TreeAgent = new TreeAgent({
    tree: englishIntentTree(),
    embeddingCache: options.embeddingCache,
    spaceFitter: options.fitter,
    log: (_level, message) => lines.push({ message, status: agent.space() }),
  });
  return { agent, lines };
}

// The real bases (@treeagent/embedder-use is installed here): the USE-lite student for the interim
// fit, USE-lite for the final one. The tree is small, so the threshold is lowered to its size.
describe('an interim fit while USE-lite embeds a large tree', () => {
  test('a cold cache: the agent routes over the student first, then over USE-lite', async () => {
    const fits = temporary();
    const embeddingCache = new InMemoryEmbeddingCache();
    const { agent, lines } = agentWith({
      embeddingCache,
      fitter: spaceFitter({ cacheDirectory: fits, interimFit: { minUnembeddedChunks: 100 } }),
    });
    const status = await agent.whenFitted();
    expect(status).toMatchObject({ state: 'fitted', baseId: USE_BASE });
    expect(lines.map((line) => line.message)).toEqual([
      expect.stringMatching(
        /^Tree Agent: routing tree ".*" in an interim fitted space while the fit runs \(fitted in \d+\.\d s; over USE-lite student \+ hashed n-grams 2:1 \(English tree: .*\) \(interim\)\); thresholds calibrated in it\.$/,
      ),
      expect.stringMatching(/in the fitted space .*; over USE-lite \+ hashed n-grams 2:1/),
    ]);
    // While the final fit ran, the agent routed in the interim space and said so.
    const interim = lines[0]!.status;
    expect(interim).toMatchObject({
      state: 'fitting',
      interim: { baseId: STUDENT_BASE, cached: false },
    });
    expect(interim.embedderId).toMatch(/^fitted\(concat\(use-lite-student-en@1\*2,/);
    // Both fits are kept (a restart before the final fit is ready reads the interim one); a restart
    // now reads the final one, nothing interim.
    expect(readdirSync(fits)).toHaveLength(2);
    const again = agentWith({
      embeddingCache,
      fitter: spaceFitter({ cacheDirectory: fits, interimFit: { minUnembeddedChunks: 100 } }),
    });
    await again.agent.ready();
    expect(again.agent.space()).toMatchObject({ state: 'fitted', cached: true, baseId: USE_BASE });
    expect(again.lines).toEqual([]);
  });

  test('no interim fit when USE-lite has the chunks already, when turned off, or below the threshold', async () => {
    const embeddingCache = new InMemoryEmbeddingCache();
    await agentWith({
      embeddingCache,
      fitter: spaceFitter({ cacheDirectory: temporary(), interimFit: false }),
    }).agent.whenFitted();
    // The chunks' USE-lite vectors are in the cache now: a fit in a fresh fits directory needs none.
    const warm = agentWith({
      embeddingCache,
      fitter: spaceFitter({ cacheDirectory: temporary(), interimFit: { minUnembeddedChunks: 100 } }),
    });
    expect(await warm.agent.whenFitted()).toMatchObject({ state: 'fitted', cached: false, baseId: USE_BASE });
    expect(warm.lines.map((line) => line.message).join('\n')).not.toContain('interim fitted space');

    const off = agentWith({
      embeddingCache: new InMemoryEmbeddingCache(),
      fitter: spaceFitter({ cacheDirectory: temporary(), interimFit: false }),
    });
    expect(await off.agent.whenFitted()).toMatchObject({ state: 'fitted', baseId: USE_BASE });
    expect(off.lines.map((line) => line.message).join('\n')).not.toContain('interim fitted space');

    // The default threshold: 128 chunks are far below it.
    expect(INTERIM_FIT_MIN_UNEMBEDDED).toBeGreaterThan(englishIntentTree().chunks.length);
    const small = agentWith({
      embeddingCache: new InMemoryEmbeddingCache(),
      fitter: spaceFitter({ cacheDirectory: temporary() }),
    });
    expect(await small.agent.whenFitted()).toMatchObject({ state: 'fitted', baseId: USE_BASE });
    expect(small.lines.map((line) => line.message).join('\n')).not.toContain('interim fitted space');
  });

  test('by default only a pulled model gets one; asked for, USE-lite too, at the threshold given', () => {
    const pulled = { interimByDefault: true };
    const useLite = { interimByDefault: false };
    expect(interimThreshold(undefined, pulled)).toBe(INTERIM_FIT_MIN_UNEMBEDDED);
    expect(interimThreshold(undefined, useLite)).toBeNull();
    expect(interimThreshold(true, useLite)).toBe(INTERIM_FIT_MIN_UNEMBEDDED);
    expect(interimThreshold({}, useLite)).toBe(INTERIM_FIT_MIN_UNEMBEDDED);
    expect(interimThreshold({ minUnembeddedChunks: 100 }, useLite)).toBe(100);
    expect(interimThreshold({ minUnembeddedChunks: 0 }, useLite)).toBe(0);
    expect(interimThreshold(false, pulled)).toBeNull();
  });

  test("only the 'auto' base makes one: a fit over the student is already cheap", async () => {
    const student = agentWith({
      embeddingCache: new InMemoryEmbeddingCache(),
      fitter: spaceFitter({
        cacheDirectory: temporary(),
        base: 'use-student',
        interimFit: { minUnembeddedChunks: 100 },
      }),
    });
    expect(await student.agent.whenFitted()).toMatchObject({ state: 'fitted', baseId: STUDENT_BASE });
    expect(student.lines.map((line) => line.message).join('\n')).not.toContain('interim fitted space');
  });

  test('treeagent fit (no onInterim): the fit it makes ahead has no interim step', async () => {
    const fits = temporary();
    const fitter = spaceFitter({ cacheDirectory: fits, interimFit: { minUnembeddedChunks: 100 } });
    const tree = englishIntentTree();
    const space = await fitter.fit({
      tree,
      base: new HashedEmbedder(),
      baseIsDefault: true,
      embeddingCache: new InMemoryEmbeddingCache(),
      signal: new AbortController().signal,
    });
    expect(space.baseId).toBe(USE_BASE);
    // One fit kept, the final one: no interim fit was made.
    expect(readdirSync(fits)).toEqual([basename(space.file!)]);
  });
});

// With its map refined on the chunks (`refine`), the LDA's own fit routes while the refinement runs.
describe("the LDA's fit routes while its map is refined", () => {
  for (const worker of [true, false])
    test(`the agent routes in the LDA's fit, then in the refined one (${worker ? 'in a worker' : 'on this thread'})`, async () => {
      const refine = { scale: 12, epochs: 40, batch: 16, learningRate: 0.1 };
      const { agent, lines } = agentWith({
        embeddingCache: new InMemoryEmbeddingCache(),
        fitter: spaceFitter({ base: 'agent', cacheDirectory: false, refine, worker }),
      });
      const status = await agent.whenFitted();
      expect(status).toMatchObject({ state: 'fitted', baseId: HASHED });
      expect(lines.map((line) => line.message)).toEqual([
        expect.stringMatching(/in an interim fitted space while the fit runs \(fitted in \d+\.\d s\)/),
        expect.stringMatching(/in the fitted space .*, the map refined on the chunks \(40 passes\)/),
      ]);
      const interim = lines[0]!.status;
      expect(interim.state).toBe('fitting');
      // Another map: the interim's embedder is not the final one's.
      expect(interim.embedderId).not.toBe(status.embedderId);
      expect(interim.embedderId).toMatch(/^fitted\(/);
    });
});

test('interimFit: false — no interim fit while the map is refined either', async () => {
  const { agent, lines } = agentWith({
    embeddingCache: new InMemoryEmbeddingCache(),
    fitter: spaceFitter({
      base: 'agent',
      cacheDirectory: false,
      refine: { scale: 12, epochs: 2, batch: 16, learningRate: 0.1 },
      interimFit: false,
    }),
  });
  await agent.whenFitted();
  expect(lines.map((line) => line.message)).toEqual([
    expect.stringMatching(/in the fitted space .*, the map refined on the chunks \(2 passes\)/),
  ]);
});
