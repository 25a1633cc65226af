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

  /** A scripted model (a mock) that calls orderStatus for the order it is told about, then answers from the record. */
  const orderModel = () =>
    new ScriptedLanguageModel({
      answers: (request) => {
        if (request.system?.startsWith('Rewrite the last user message')) return 'stato del mio ordine';
        const last = request.messages.at(-1)!;
        if (!request.tools || request.toolChoice === 'none') return 'Non riesco a verificare.';
        if (last.role !== 'tool') {
          const number = /numero (\d+)/.exec(String(last.content))![1]!;
          return { toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: number } }] };
        }
        const order = (last.content as { output: Record<string, string> }[])[0]!.output;
        return order.found
          ? `Il tuo ordine è in viaggio con ${order.carrier}: arriva il ${order.expectedDelivery}.`
          : `Non trovo l'ordine ${order.orderNumber}: puoi controllare il numero?`;
      },
    });

  test('the order status is written from the orderStatus tool: the model calls it, then streams its answer', async () => {
    const agent = new TreeAgent({ tree: bikeShopTree({ generative: true }), models: orderModel() });
    const first = await agent.send('s', "dov'è il mio ordine?");
    expect(first.messages[0]!.nodeId).toBe(ids.askOrderNumber);
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('s', 'è il 12345')) events.push(event);
    const call = events.find((event) => event.type === 'tool-call');
    expect(call).toMatchObject({
      nodeId: ids.orderStatus,
      toolName: 'orderStatus',
      input: { orderNumber: '12345' },
    });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
      output: { found: true, status: 'spedito', carrier: 'BRT', expectedDelivery: '2026-12-03' },
    });
    const end = events.at(-1) as Extract<AgentEvent, { type: 'turn-end' }>;
    expect(end.output.messages.at(-1)).toMatchObject({
      nodeId: ids.orderStatus,
      type: 'generated',
      content: 'Il tuo ordine è in viaggio con BRT: arriva il 2026-12-03.',
    });
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(3);
  });

  test('an order the system does not know: the tool says so and the model asks to check the number', async () => {
    const agent = new TreeAgent({ tree: bikeShopTree({ generative: true }), models: orderModel() });
    await agent.send('s', "dov'è il mio ordine?");
    const output = await agent.send('s', '99999');
    expect(output.trace).toContainEqual(
      expect.objectContaining({ type: 'tool-result', output: { found: false, orderNumber: '99999' } }),
    );
    expect(output.messages.at(-1)!.content).toBe("Non trovo l'ordine 99999: puoi controllare il numero?");
  });
});
