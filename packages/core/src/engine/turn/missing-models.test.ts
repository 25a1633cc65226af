import { describe, expect, it } from 'vitest';
import { type NodeDefinition, TreeAgentError } from '../../index.js';
import { ScriptedLanguageModel } from '../../test/index.js';
import { rejection } from '../../test/rejection.js';
import { say, testAgent } from '../../test-support/engine-fixtures.js';

const VECTORS: Record<string, number[]> = { alpha: [1, 0, 0], beta: [0, 1, 0], gamma: [0, 0, 1] };

const TREE: NodeDefinition[] = [
  { id: 1, type: 'root', smartExtendedMessage: true },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  {
    id: 3,
    type: 'llm',
    parent: 2,
    name: 'summary',
    chunks: ['alpha'],
    after: (_self, _context, special) => ({ nodeTarget: special.kind === 'llm' && special.text ? 4 : 5 }),
  },
  { id: 4, type: 'emit', parent: 3, emit: say('answered') },
  { id: 5, type: 'emit', parent: 3, emit: say('no text') },
  {
    id: 6,
    type: 'emit',
    parent: 2,
    chunks: ['beta'],
    emit: { message: { type: 'generated' } },
    prompt: { prompt: 'hi' },
  },
  { id: 7, type: 'guardrail', parent: 2, chunks: ['gamma'], warning: { type: 'generated', prompt: 'warn' } },
];

const help = (model: string) => `Configure "${model}" in treeagent.config.json.`;

describe("missingModels: 'notice'", () => {
  it('loads a tree whose models are missing; each node that needs one answers with a warning naming the fix', async () => {
    const agent = testAgent(TREE, {
      vectors: VECTORS,
      models: undefined,
      missingModels: 'notice',
      modelHelp: help,
    });
    await agent.ready();
    for (const [message, nodeId, purpose] of [
      ['alpha', 3, 'an llm node'],
      ['beta', 6, 'a GENERATED message'],
      ['gamma', 7, 'a generated warning'],
    ] as const) {
      const output = await agent.send(`s-${nodeId}`, message);
      expect(output.status).toBe('answered');
      expect(output.messages).toHaveLength(1);
      expect(output.messages[0]).toMatchObject({ nodeId, isWarning: true });
      expect(output.messages[0]!.content).toContain(`No language model configured: node ${nodeId}`);
      expect(output.messages[0]!.content).toContain(`needs the model "default" for ${purpose}`);
      expect(output.messages[0]!.content).toContain('Configure "default" in treeagent.config.json.');
    }
    // The llm node's after runs on the next message with no text: the conversation goes on.
    const next = await agent.send('s-3', 'alpha');
    expect(next.messages[0]!.content).toBe('no text');
  });

  it("'fail' (the default) refuses to load, naming the fix of modelHelp instead of new TreeAgent", async () => {
    const agent = testAgent(TREE, { vectors: VECTORS, models: undefined, modelHelp: help });
    const error = await rejection(agent.ready());
    expect(error.code).toBe('MODEL_NOT_CONFIGURED');
    expect(error.message).toContain('node 3 (an llm node) needs model "default"');
    expect(error.message).toContain('Configure "default" in treeagent.config.json.');
    expect(error.message).not.toContain('new TreeAgent');
  });

  it('a configured model is used as usual in notice mode', async () => {
    const agent = testAgent(TREE, {
      vectors: VECTORS,
      models: new ScriptedLanguageModel({ answers: 'model text' }),
      missingModels: 'notice',
      calibrateThresholds: false,
    });
    const output = await agent.send('s', 'alpha');
    expect(output.messages.map((message) => message.content)).toEqual(['answered']);
  });

  it('refuses an unknown mode', () => {
    expect(() => testAgent(TREE, { missingModels: 'ignore' as 'fail' })).toThrow(TreeAgentError);
  });
});
