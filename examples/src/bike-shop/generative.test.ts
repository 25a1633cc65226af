import { type AgentEvent, TreeAgent } from '@treeagent/core';
import { ScriptedLanguageModel } from '@treeagent/core/test';
import { describe, expect, test } from 'vitest';
import { bikeShopTree, ids } from './tree.js';

/** A scripted model (a mock) standing in for a real one: it checks, rewrites and answers. */
function model(answerable = true) {
  return new ScriptedLanguageModel({
    answers: (request) => {
      if (request.responseFormat) return JSON.stringify({ answerable });
      if (request.system?.startsWith('Rewrite the last user message'))
        return 'quanto costa la spedizione in Germania?';
      return 'La spedizione costa 7,90 €, gratis sopra i 99 €.';
    },
  });
}

describe('bike-shop example with a language model', () => {
  test('knowledge answers are checked by the llm node, then generated and streamed, with sources', async () => {
    const agent = new TreeAgent({ tree: bikeShopTree({ generative: true }), models: model() });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('s', 'quanto costa la spedizione?')) events.push(event);
    const executed = events.flatMap((event) =>
      event.type === 'step-start' && event.step === 'execute' ? [event.nodeId] : [],
    );
    expect(executed).toEqual([ids.shipping * 10 + 2, ids.shipping * 10 + 4, ids.shipping * 10 + 3]);
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(3);
    const end = events.at(-1) as Extract<AgentEvent, { type: 'turn-end' }>;
    expect(end.output.messages[0]).toMatchObject({
      type: 'generated',
      content: 'La spedizione costa 7,90 €, gratis sopra i 99 €.',
    });
    expect(end.output.messages[0]!.sources[0]!.title).toBe('Costi di spedizione');
  });

  test('later messages are rewritten with the conversation by the extended message', async () => {
    const scripted = model();
    const agent = new TreeAgent({ tree: bikeShopTree({ generative: true }), models: scripted });
    await agent.send('s', 'quanto costa la spedizione?');
    const second = await agent.send('s', 'e in Germania?');
    expect(second.trace).toContainEqual({
      type: 'message-extended',
      original: 'e in Germania?',
      extended: 'quanto costa la spedizione in Germania?',
    });
    const rewrite = scripted.calls.find((call) => call.system?.startsWith('Rewrite'))!;
    expect(rewrite.messages[0]!.content).toContain('Assistenza clienti di Ciclofficina Rossi');
  });

  test('when the documents do not answer, the knowledge component fails to its anchor', async () => {
    const agent = new TreeAgent({ tree: bikeShopTree({ generative: true }), models: model(false) });
    const output = await agent.send('s', 'quanto costa la spedizione?');
    expect(output.trace).toContainEqual(
      expect.objectContaining({ type: 'after-output', nodeId: ids.shipping * 10 + 4, outcome: 'failure' }),
    );
    expect(output.messages.at(-1)!.nodeId).not.toBe(ids.shipping * 10 + 3);
  });
});
