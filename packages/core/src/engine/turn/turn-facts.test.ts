import { describe, expect, it } from 'vitest';
import type { TurnFact } from '../../protocol/turn-fact.js';
import { InMemorySessionStore } from '../../session/in-memory-session-store.js';
import type { SessionCommit } from '../../session/session-store.js';
import { say, testAgent } from '../../test-support/engine-fixtures.js';
import type { NodeDefinition } from '../../tree/node-definition.js';

/** The in-memory store, recording the commits and failed-turn facts it receives (a test double, labelled). */
class RecordingStore extends InMemorySessionStore {
  readonly commits: SessionCommit[] = [];
  readonly failed: TurnFact[] = [];
  override async commit(commit: SessionCommit): Promise<void> {
    this.commits.push(structuredClone(commit));
    await super.commit(commit);
  }
  async recordFacts(facts: TurnFact[]): Promise<void> {
    this.failed.push(...facts);
  }
}

const seen: string[] = [];
const nodes: NodeDefinition[] = [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  {
    id: 3,
    type: 'emit',
    parent: 2,
    chunks: ['alpha'],
    emit: say('A'),
    before: (_self, context) => void seen.push(context.input.original),
  },
  { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('B') },
  {
    id: 5,
    type: 'emit',
    parent: 2,
    chunks: ['gamma'],
    before: () => {
      throw new Error('boom');
    },
    emit: say('never'),
  },
];

describe('turn facts', () => {
  it("ride in the turn's commit: status, node, agent, each decision with its margin to the runner-up", async () => {
    const sessionStore = new RecordingStore();
    const agent = testAgent(nodes, { sessionStore, calibrateThresholds: false });
    await agent.send('s1', 'alpha2');
    const [commit] = sessionStore.commits;
    expect(commit!.facts).toHaveLength(1);
    const fact = commit!.facts![0]!;
    expect(fact).toMatchObject({
      sessionId: 's1',
      turn: 1,
      status: 'answered',
      errorCode: null,
      nodeId: 3,
      agentId: 2,
      message: 'alpha2',
      lowMarginNodeId: 2,
      lowMarginChildId: 3,
      lowMarginRunnerUpId: 4,
      inputTokens: null,
    });
    expect(fact.treeVersion).toMatch(/^[0-9a-f]{8,}$/);
    expect(fact.bestSimilarity).toBeCloseTo(0.8, 5);
    expect(fact.minMargin).toBeCloseTo(0.2, 5);
    expect(fact.decisions[0]).toMatchObject({ nodeId: 2, childId: 3, runnerUpId: 4, descended: true });
    expect(fact.latencyMs).toBeGreaterThanOrEqual(0);
  });

  // Dense vectors (every coordinate set), so the in-memory index can keep sign bits.
  const dense = (values: number[]) => {
    const norm = Math.hypot(...values);
    return values.map((value) => value / norm);
  };
  const denseVectors = {
    alpha: dense([1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),
    beta: dense([0.1, 1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),
    gamma: dense([0.1, 0.1, 1, 0.1, 0.1, 0.1, 0.1, 0.1]),
    alpha2: dense([0.8, 0.6, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),
  };
  const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
  const margin = dot(denseVectors.alpha2, denseVectors.alpha) - dot(denseVectors.alpha2, denseVectors.beta);
  for (const [path, options] of [
    ['the exact in-memory scan', { exploreScan: 'exact' }],
    ['the sign-bit scan', { exploreScan: 'sign-bits' }],
    ['a vector store', { exploreIn: 'vector-store' }],
  ] as const) {
    it(`carry the margin to the runner-up when exploration runs in ${path}`, async () => {
      const sessionStore = new RecordingStore();
      const agent = testAgent(nodes, {
        sessionStore,
        calibrateThresholds: false,
        vectors: denseVectors,
        ...options,
      });
      await agent.send('s1', 'alpha2');
      const fact = sessionStore.commits[0]!.facts![0]!;
      expect(fact).toMatchObject({
        nodeId: 3,
        lowMarginNodeId: 2,
        lowMarginChildId: 3,
        lowMarginRunnerUpId: 4,
      });
      expect(fact.minMargin).toBeCloseTo(margin, 5);
      expect(fact.decisions[0]).toMatchObject({ nodeId: 2, childId: 3, runnerUpId: 4 });
      expect(fact.decisions[0]!.margin).toBeCloseTo(margin, 5);
    });
  }

  it('a message that fits nothing is a no-match fact in its agent', async () => {
    const sessionStore = new RecordingStore();
    const agent = testAgent(nodes, { sessionStore, calibrateThresholds: false });
    await agent.send('s1', 'something else');
    expect(sessionStore.commits[0]!.facts![0]).toMatchObject({
      status: 'no-match',
      agentId: 2,
      nodeId: null,
    });
  });

  it('a failed turn commits nothing but records an error fact', async () => {
    const sessionStore = new RecordingStore();
    const agent = testAgent(nodes, { sessionStore, calibrateThresholds: false });
    await expect(agent.send('s1', 'gamma')).rejects.toThrow(/boom/);
    expect(sessionStore.commits).toHaveLength(0);
    expect(sessionStore.failed).toEqual([
      expect.objectContaining({
        sessionId: 's1',
        turn: 1,
        status: 'error',
        errorCode: 'CALLBACK_ERROR',
        message: 'gamma',
      }),
    ]);
  });

  it('turnFacts: false records none', async () => {
    const sessionStore = new RecordingStore();
    const agent = testAgent(nodes, { sessionStore, turnFacts: false });
    await agent.send('s1', 'alpha');
    expect(sessionStore.commits[0]!.facts).toBeUndefined();
  });
});

describe('redaction before anything is stored', () => {
  const message = 'alpha scrivi a mario.rossi@example.com o al 333 1234567';

  it('the history, the pending message and the fact hold placeholders; the live turn sees them too by default', async () => {
    const sessionStore = new RecordingStore();
    const agent = testAgent(nodes, {
      sessionStore,
      redaction: {},
      vectors: {
        [message.replace('mario.rossi@example.com', '[email]').replace('333 1234567', '[phone]')]: [
          1, 0, 0, 0,
        ],
        alpha: [1, 0, 0, 0],
        beta: [0, 1, 0, 0],
      },
    });
    seen.length = 0;
    await agent.send('s1', message);
    const stored = JSON.stringify(sessionStore.commits);
    expect(stored).not.toContain('mario.rossi@example.com');
    expect(stored).not.toContain('333 1234567');
    expect(sessionStore.commits[0]!.history[0]!.content).toBe('alpha scrivi a [email] o al [phone]');
    expect(sessionStore.commits[0]!.facts![0]!.message).toBe('alpha scrivi a [email] o al [phone]');
    expect(seen).toEqual(['alpha scrivi a [email] o al [phone]']);
  });

  it("liveTurn lets the turn see a detector's values while the store still gets placeholders", async () => {
    const sessionStore = new RecordingStore();
    const live = message.replace('333 1234567', '[phone]');
    const agent = testAgent(nodes, {
      sessionStore,
      redaction: { liveTurn: ['email'] },
      vectors: { [live]: [1, 0, 0, 0], alpha: [1, 0, 0, 0], beta: [0, 1, 0, 0] },
    });
    seen.length = 0;
    await agent.send('s1', message);
    expect(seen).toEqual([live]);
    expect(JSON.stringify(sessionStore.commits)).not.toContain('mario.rossi@example.com');
  });
});
