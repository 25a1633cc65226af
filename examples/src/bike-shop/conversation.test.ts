import { type AgentOutput, TreeAgent } from '@treeagent/core';
import { describe, expect, test } from 'vitest';
import { playScript, script } from './conversation.js';
import { bikeShopTree, ids } from './tree.js';

/** Ids of the nodes a turn executed, in order. */
function executed(output: AgentOutput): number[] {
  return output.trace.flatMap((event) =>
    event.type === 'step-start' && event.step === 'execute' ? [event.nodeId] : [],
  );
}

describe('bike-shop example: the scripted conversation', async () => {
  const tree = bikeShopTree();
  const agent = new TreeAgent({ tree });
  const outputs = await playScript(agent, 'test-session');
  const turn = (say: string, index = script.findIndex((t) => (t.selectedOption ?? t.say) === say)) =>
    outputs[index]!;

  test('plays every turn without error', () => {
    expect(outputs).toHaveLength(script.length);
    for (const output of outputs) expect(output.messages.length).toBeGreaterThan(0);
  });

  test('greets and offers options', () => {
    expect(executed(turn('Ciao!'))).toEqual([ids.greeting]);
    expect(turn('Ciao!').messages[0]!.options).toContain('Spedizioni');
  });

  test('the knowledge component answers from its own knowledge base, with sources', () => {
    const shippingCost = turn('Spedizioni');
    expect(executed(shippingCost)).toEqual([ids.shipping * 10 + 2, ids.shipping * 10 + 3]);
    expect(shippingCost.messages[0]!.content).toContain('7,90');
    expect(shippingCost.messages[0]!.sources[0]!.title).toBe('Costi di spedizione');
    expect(turn('e quanto ci mettete a consegnare?').messages[0]!.content).toContain('2-4 giorni');
    const defect = turn('vorrei restituire un prodotto difettoso');
    expect(executed(defect)).toEqual([ids.returns * 10 + 2, ids.returns * 10 + 3]);
    expect(defect.messages[0]!.content).toContain('difettoso');
  });

  test('a follow-up outside the knowledge bases climbs through the anchor to the blocking orders node', () => {
    const order = turn("dov'è il mio ordine?");
    expect(executed(order)).toEqual([ids.information, ids.orders, ids.askOrderNumber]);
    const decisions = order.trace.filter((event) => event.type === 'explore-decision');
    expect(
      decisions.some(
        (event) =>
          event.type === 'explore-decision' && event.action === 'blocking' && event.nodeId === ids.orders,
      ),
    ).toBe(true);
  });

  test('the form keeps asking until it gets a number, across an operator hand-off and a resume', () => {
    expect(turn('non lo so').messages[0]!.content).toContain('Non trovo un numero');
    expect(executed(turn('voglio parlare con un operatore'))).toEqual([ids.handoff]);
    const back = turn("Torna all'assistente");
    expect(executed(back)).toEqual([ids.backToAssistant, ids.askOrderNumber]);
    expect(back.messages).toHaveLength(2);
    expect(turn('è il 123456').messages[0]!.content).toContain("L'ordine 123456");
  });

  test('guardrail warnings are flagged', () => {
    const warning = turn('stupido bot').messages[0]!;
    expect(warning.isWarning).toBe(true);
    expect(warning.nodeId).toBe(ids.guardrail);
  });

  test('the order number is remembered in the session state', () => {
    expect(executed(turn('il mio ordine non è arrivato'))).toEqual([ids.orders, ids.orderStatus]);
  });

  test('messages nothing fits go to the fallback, and two in a row hand over to an operator', () => {
    expect(executed(turn('mi serve un preventivo per una bici da corsa su misura'))).toEqual([
      ids.didNotUnderstand,
    ]);
    expect(executed(turn('fate anche noleggio di tandem?'))).toEqual([ids.didNotUnderstand]);
    expect(executed(turn('ok grazie'))).toEqual([ids.handoff]);
    expect(outputs.at(-1)!.status).toBe('handed-off');
    expect(outputs.at(-1)!.handoff).toMatchObject({
      queue: 'assistenza',
      reason: 'Due messaggi di fila non capiti',
      summary: 'Ordine 123456. Ultimo messaggio: "ok grazie"',
    });
    expect(outputs.at(-1)!.serverMetadata.sessionState).toMatchObject({ orderNumber: '123456' });
  });

  test('the history holds every message of the conversation', async () => {
    const history = await agent.history('test-session');
    const userMessages = history.filter((entry) => entry.role === 'user');
    expect(userMessages).toHaveLength(script.length);
    // Besides the messages, one row per handoff transition (started, ended).
    expect(history.filter((entry) => entry.role !== 'system').length).toBe(
      script.length + outputs.reduce((sum, output) => sum + output.messages.length, 0),
    );
  });
});
