import { type AgentOutput, defineTree, TreeAgent, type TreeAgentOptions } from '@treeagent/core';
import { ScriptedLanguageModel } from '@treeagent/core/test';
import { describe, expect, test } from 'vitest';
import { form } from './form.js';
import { formFallback } from './form-fallback.js';
import type { FormOptions } from './form-options.js';
import type { FormState } from './form-state.js';

// Tuesday 1 December 2026, 11:00 in Rome.
const now = () => new Date('2026-12-01T10:00:00Z');

function tableTree(overrides: Partial<FormOptions> = {}) {
  const completed: Record<string, unknown>[] = [];
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      {
        id: 2,
        type: 'agent',
        parent: 1,
        isPrimary: true,
        links: { sorry: 9 },
        fallback: formFallback((_self, _context, _special, links) => ({ nodeTarget: links.sorry })),
      },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        name: 'spedizione',
        chunks: ['quanto costa la spedizione', 'costo della spedizione', 'spese di spedizione'],
        emit: { message: { type: 'static', content: 'La spedizione costa 7,90 €.' } },
      },
      {
        id: 4,
        type: 'component',
        parent: 2,
        idBase: 100,
        use: form({
          name: 'tavolo',
          triggers: ['vorrei prenotare un tavolo', 'prenotazione tavolo', 'prenotare per cena'],
          now,
          slots: [
            { name: 'date', type: 'date', question: 'Per che giorno?', dates: 'future', label: 'Giorno' },
            { name: 'time', type: 'time', question: 'A che ora?', label: 'Ora' },
            {
              name: 'people',
              type: 'integer',
              question: 'Per quante persone?',
              keywords: ['persone', 'people'],
              min: 1,
              max: 12,
              label: 'Persone',
            },
            { name: 'phone', type: 'phone', question: 'Un numero di telefono?', label: 'Telefono' },
            {
              name: 'notes',
              type: 'text',
              question: 'Note per la cucina?',
              required: false,
              default: 'nessuna',
              label: 'Note',
            },
          ],
          onComplete: (values, context) => {
            completed.push(values);
            context.sessionState.set('booked', values);
            return `Prenotato per ${values.people} persone il ${values.date} alle ${values.time}.`;
          },
          ...overrides,
        }),
      },
      {
        id: 9,
        type: 'emit',
        parent: 2,
        name: 'non ho capito',
        emit: { message: { type: 'static', content: 'Scusa, non ho capito.' } },
      },
    ],
  });
  return { tree, completed };
}

const stateOf = async (agent: TreeAgent, session: string) =>
  (await agent.sessionStore.load(session))?.state['form:tavolo'] as FormState | undefined;

async function talk(options: TreeAgentOptions, messages: string[], session = 's1') {
  const agent = new TreeAgent(options);
  const outputs: AgentOutput[] = [];
  for (const message of messages) outputs.push(await agent.send(session, message));
  return {
    agent,
    outputs,
    last: outputs.at(-1)!,
    text: (index: number) =>
      outputs
        .at(index)!
        .messages.map((m) => m.content)
        .join(' | '),
  };
}

describe('form', () => {
  test('several slots from the trigger message, the rest one per turn, then confirmation and onComplete', async () => {
    const { tree, completed } = tableTree();
    const { agent, text, outputs } = await talk({ tree }, [
      'vorrei prenotare un tavolo per domani alle 20 per 4 persone',
      '+39 333 1234567',
      'non lo so',
      'sì',
    ]);
    expect(text(0)).toBe('Un numero di telefono?');
    expect(text(1)).toBe('Note per la cucina?');
    expect(text(2)).toContain('- Giorno: mercoledì 2 dicembre 2026');
    expect(text(2)).toContain('- Telefono: +39 333 1234567');
    expect(text(2)).toContain('- Note: nessuna');
    expect(outputs[2]!.messages[0]!.options).toEqual(['Sì', 'No']);
    expect(text(3)).toBe('Prenotato per 4 persone il 2026-12-02 alle 20:00.');
    expect(completed).toEqual([
      { date: '2026-12-02', time: '20:00', people: 4, phone: '+393331234567', notes: 'nessuna' },
    ]);
    const record = await agent.sessionStore.load('s1');
    expect(record?.state['form:tavolo']).toBeUndefined();
    expect(record?.state['form:active']).toBeUndefined();
    expect(record?.state.booked).toMatchObject({ people: 4 });
  });

  test('a correction ("no, siamo in 5") changes a filled slot while another is asked', async () => {
    const { tree } = tableTree();
    const { agent, text } = await talk({ tree }, [
      'vorrei prenotare un tavolo per 4 persone',
      'no, siamo in 5',
    ]);
    expect(text(1)).toBe('Per che giorno?');
    const state = await stateOf(agent, 's1');
    expect(state?.values.people).toBe(5);
    expect(state?.log.at(-1)?.extracted[0]).toMatchObject({
      slot: 'people',
      value: 5,
      correction: true,
      parser: 'number',
    });
  });

  test('an invalid phone is asked again with the reason; after maxReasks the agent fallback answers', async () => {
    const { tree } = tableTree({ maxReasks: 1 });
    const { agent, text, outputs } = await talk({ tree }, [
      'vorrei prenotare un tavolo domani alle 20 per 2 persone',
      '333 12',
      '12 34',
    ]);
    expect(text(1)).toBe('Il numero di telefono non sembra valido. Un numero di telefono?');
    expect(outputs[1]!.status).toBe('answered');
    expect(text(2)).toBe('Scusa, non ho capito.');
    expect(outputs[2]!.status).toBe('fallback-no-match');
    expect(await stateOf(agent, 's1')).toBeUndefined();
  });

  test('a digression is answered by exploration and the form resumes with its slots', async () => {
    const { tree } = tableTree();
    const { agent, text, outputs } = await talk({ tree }, [
      'vorrei prenotare un tavolo per domani',
      'quanto costa la spedizione?',
      'va bene',
      'alle 21',
    ]);
    expect(text(0)).toBe('A che ora?');
    expect(text(1)).toBe('La spedizione costa 7,90 €.');
    expect(outputs[1]!.status).toBe('answered');
    // Nothing else takes "va bene": the fallback brings it back to the form, which asks again (not counted).
    expect(text(2)).toBe('Riprendiamo da dove eravamo. A che ora?');
    expect(text(3)).toBe('Per quante persone?');
    const state = await stateOf(agent, 's1');
    expect(state?.values).toEqual({ date: '2026-12-02', time: '21:00' });
    expect(state?.attempts).toBe(0);
  });

  test('a slot value right after a digression goes back to the form', async () => {
    const { tree } = tableTree();
    const { agent, text } = await talk({ tree }, [
      'vorrei prenotare un tavolo',
      'quanto costa la spedizione?',
      'giovedì prossimo',
    ]);
    expect(text(2)).toBe('A che ora?');
    expect((await stateOf(agent, 's1'))?.values.date).toBe('2026-12-03');
  });

  test('an unrecognised reply that nothing else takes is asked again and counted', async () => {
    const { tree } = tableTree();
    const { agent, text, outputs } = await talk({ tree }, [
      'vorrei prenotare un tavolo',
      'forse mah vediamo',
    ]);
    expect(text(1)).toBe('Non ho capito. Per che giorno?');
    expect(outputs[1]!.status).toBe('fallback-no-match');
    expect((await stateOf(agent, 's1'))?.attempts).toBe(1);
  });

  test('cancel ("lascia stare") ends the form and forgets its slots', async () => {
    const { tree } = tableTree();
    const { agent, text } = await talk({ tree }, [
      'vorrei prenotare un tavolo per 3 persone',
      'lascia stare',
    ]);
    expect(text(1)).toContain('lascio stare');
    expect(await stateOf(agent, 's1')).toBeUndefined();
    const again = await agent.send('s1', 'ciao cosa fate');
    expect(again.messages[0]?.content).toBe('Scusa, non ho capito.');
  });

  test('"I don\'t know" for a required slot asks again, saying it is needed', async () => {
    const { tree } = tableTree({ language: 'en' });
    const { text } = await talk({ tree }, ['vorrei prenotare un tavolo', "I don't know"]);
    expect(text(1)).toBe('I need this to go on. Per che giorno?');
  });

  test('a "no" at the confirmation asks what to change; the change is confirmed again', async () => {
    const { tree, completed } = tableTree({ confirm: true });
    const { text } = await talk({ tree }, [
      'vorrei prenotare un tavolo domani alle 20 per 4 persone, telefono 3331234567',
      'salta',
      'No',
      'alle 21',
      'Sì',
    ]);
    expect(text(2)).toBe('Cosa vuoi cambiare?');
    expect(text(3)).toContain('- Ora: 21:00');
    expect(completed[0]).toMatchObject({ time: '21:00' });
  });

  test('without confirmation the form completes as soon as the last slot is given', async () => {
    const { tree, completed } = tableTree({ confirm: false });
    const { text } = await talk({ tree }, [
      'vorrei prenotare un tavolo domani alle 20 per 4 persone, tel 3331234567',
      'nulla',
    ]);
    expect(text(1)).toContain('Prenotato per 4 persone');
    expect(completed[0]).toMatchObject({ notes: 'nulla' });
  });

  test('the debug metadata shows the slots, what the message gave and by which parser', async () => {
    const { tree } = tableTree();
    const { last } = await talk({ tree }, ['vorrei prenotare un tavolo domani alle 20']);
    const summary = (last.serverMetadata.forms as Record<string, any>).tavolo;
    expect(summary.status).toBe('collecting');
    expect(summary.awaiting).toBe('people');
    expect(summary.message.extracted.map((item: any) => [item.slot, item.parser])).toEqual([
      ['date', 'date:relative'],
      ['time', 'time'],
    ]);
    expect(summary.slots.find((slot: any) => slot.name === 'date')).toMatchObject({
      value: '2026-12-02',
      display: 'mercoledì 2 dicembre 2026',
      parser: 'date:relative',
      text: 'domani',
    });
  });

  test('with a model, the LLM extraction fills what the parsers could not, validated like any value', async () => {
    const model = new ScriptedLanguageModel({
      supportsJsonSchema: true,
      // The model reads the day, and invents an invalid phone, which is refused.
      answers: [JSON.stringify({ date: '2026-12-24', time: null, people: null, phone: '12', notes: null })],
    });
    const { tree } = tableTree({ llm: true });
    const { agent, text } = await talk({ tree, models: model }, [
      'vorrei prenotare un tavolo',
      'la sera della vigilia di natale',
    ]);
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.responseFormat).toBeTruthy();
    expect(JSON.stringify(model.calls[0]!.messages)).toContain('Message: la sera della vigilia di natale');
    expect(text(1)).toBe('A che ora?');
    const state = await stateOf(agent, 's1');
    expect(state?.values).toEqual({ date: '2026-12-24' });
    expect(state?.sources.date?.parser).toBe('llm');
    expect(state?.log.at(-1)?.misses).toEqual([{ slot: 'phone', error: 'invalid', text: '12' }]);
  });

  test('the model is not called when the parsers read the awaited slot', async () => {
    const model = new ScriptedLanguageModel({ supportsJsonSchema: true, answers: ['{}'] });
    const { tree } = tableTree({ llm: true });
    const { text } = await talk({ tree, models: model }, [
      'vorrei prenotare un tavolo domani alle 20 per 4 persone',
    ]);
    expect(text(0)).toBe('Un numero di telefono?');
    expect(model.calls).toHaveLength(0);
  });

  test('bad options are reported all at once, with the fix', () => {
    expect(() =>
      form({ name: 'x', triggers: [], slots: [{ name: 'a b', type: 'enum', question: '' }] } as FormOptions),
    ).toThrow(/4 problems:[\s\S]*triggers[\s\S]*letters, digits[\s\S]*question[\s\S]*needs `options`/);
  });
});

describe('form expiry', () => {
  test('a form left for other topics longer than expireAfterTurns is dropped: the fallback apologises', async () => {
    const { tree } = tableTree({ expireAfterTurns: 1 });
    const { agent, text } = await talk({ tree }, [
      'vorrei prenotare un tavolo',
      'quanto costa la spedizione?',
      'quanto costa la spedizione?',
      'forse mah vediamo',
    ]);
    expect(text(3)).toBe('Scusa, non ho capito.');
    expect((await agent.sessionStore.load('s1'))?.state['form:active']).toBeUndefined();
  });
});
