import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder, InMemoryEmbeddingCache, TreeAgent } from '@treeagent/core';
import { afterEach, describe, expect, test } from 'vitest';
import { CASCADE_GAP, CASCADE_MARGIN } from './fit-base.js';
import { spaceFitter } from './space-fitter.js';
import { englishIntentTree, italianIntentTree } from './test-support/intent-trees.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
const temporary = () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-cascade-'));
  directories.push(directory);
  return directory;
};
const HASHED = new HashedEmbedder().id;

/** The space a turn routed in (the trace's `fittedSpace`). */
async function spaceOfTurn(agent: TreeAgent, text: string): Promise<string | undefined> {
  for await (const event of agent.stream(`s-${text}`, text))
    if (event.type === 'turn-start') return event.fittedSpace;
  return undefined;
}

// The real bases (@treeagent/embedder-use is installed here): the USE-lite student and USE-lite.
describe("spaceFitter({ base: 'cascade' })", () => {
  test('an English tree: routed over the student, unsure messages over USE-lite; both fits kept', async () => {
    const fits = temporary();
    const lines: string[] = [];
    const options = {
      tree: englishIntentTree(),
      embeddingCache: new InMemoryEmbeddingCache(),
      spaceFitter: spaceFitter({ cacheDirectory: fits, base: 'cascade' }),
      log: (_level: string, message: string) => lines.push(message),
    };
    const agent = new TreeAgent(options);
    const status = await agent.whenFitted();
    expect(status).toMatchObject({
      state: 'fitted',
      cached: false,
      baseId: `concat(use-lite-student-en@1*2,${HASHED}*1)`,
      escalation: {
        baseId: `concat(use-lite-en@0.2.0*2,${HASHED}*1)`,
        base: expect.stringMatching(/^USE-lite \+ hashed n-grams 2:1/),
        margin: CASCADE_MARGIN,
        gap: CASCADE_GAP,
      },
    });
    if (status.state !== 'fitted') throw new Error('not fitted');
    expect(status.base).toMatch(
      /^USE-lite student \+ hashed n-grams 2:1 \(English tree: .*\); unsure messages over USE-lite \+ hashed n-grams 2:1$/,
    );
    expect(status.embedderId).toMatch(/^fitted\(concat\(use-lite-student-en@1\*2,/);
    expect(status.escalation?.embedderId).toMatch(/^fitted\(concat\(use-lite-en@0\.2\.0\*2,/);
    // The student's fit routed while USE-lite's was made.
    expect(lines[0]).toMatch(/in an interim fitted space while the fit runs/);
    expect(readdirSync(fits)).toHaveLength(2);

    // Every turn routes in one of the two spaces, the one the gate chose; both are used.
    const messages = [
      'what is the weather like today',
      'umbrella needed today?',
      'how rich am i',
      'show me my account balance',
      'an omelette',
      'give me a recipe for pancakes',
      'the forecast for the weekend please',
      'how much money is in my checking account',
    ];
    const spaces = new Set<string | undefined>();
    for (const message of messages) spaces.add(await spaceOfTurn(agent, message));
    expect(spaces).toEqual(new Set([status.embedderId, status.escalation?.embedderId]));
    // The thresholds are the student space's: those of the student's fit alone (read from the cache).
    const student = new TreeAgent({
      ...options,
      spaceFitter: spaceFitter({ cacheDirectory: fits, base: 'use-student' }),
      log: () => {},
    });
    await student.ready();
    expect(student.space()).toMatchObject({ state: 'fitted', cached: true, embedderId: status.embedderId });
    expect(await agent.thresholds()).toEqual(await student.thresholds());

    // A restart reads both fits: the cascade from the first message, nothing fitted.
    const again = new TreeAgent({ ...options, log: () => {} });
    await again.ready();
    expect(again.space()).toMatchObject({
      state: 'fitted',
      cached: true,
      embedderId: status.embedderId,
      escalation: { embedderId: status.escalation?.embedderId },
    });
  });

  test('a tree that is not in English: fitted as with auto, no cascade', async () => {
    const agent = new TreeAgent({
      tree: italianIntentTree(),
      embeddingCache: new InMemoryEmbeddingCache(),
      spaceFitter: spaceFitter({ cacheDirectory: temporary(), base: 'cascade', modelsDirectory: false }),
    });
    const status = await agent.whenFitted();
    expect(status).toMatchObject({ state: 'fitted' });
    expect(status).not.toHaveProperty('escalation');
    expect(status).toMatchObject({ base: expect.stringMatching(/^hashed n-grams/) });
  });
});
