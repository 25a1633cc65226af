import { describe, expect, it } from 'vitest';
import { type NodeDefinition, TreeAgentError } from '../../index.js';
import { InMemorySessionStore } from '../../session/in-memory-session-store.js';
import { rejection } from '../../test/rejection.js';
import { eventsOf, executed, ROUTING_VECTORS, say, testAgent } from '../../test-support/engine-fixtures.js';

const anna = { id: 'anna', name: 'Anna' };
const bruno = { id: 'bruno', name: 'Bruno' };
const BACK = "Torna all'assistente";

/**
 * Root 1 (`beforeRun` hands off "urgent"); agent 2 (its `fallback` hands off and apologises with 9):
 * - 3 (alpha): offers "Operatore"; picking it hands off (after output) with a notice and a return option;
 * - 4 (beta, and the return option): "Beta answer";
 * - 5 (gamma): its before throws (the fallback runs);
 * - 6 (delta): its before calls `context.handoff`, then it answers.
 */
function handoffNodes(afterRun?: () => void): NodeDefinition[] {
  return [
    {
      id: 1,
      type: 'root',
      beforeRun: (_self, context) =>
        context.input.original === 'urgent' ? { handoff: { reason: 'urgent', queue: 'vip' } } : undefined,
      ...(afterRun ? { afterRun } : {}),
    },
    {
      id: 2,
      type: 'agent',
      parent: 1,
      isPrimary: true,
      fallback: (_self, context) => {
        context.handoff({ reason: 'the assistant failed', message: 'Ti passo a un collega.' });
        return { nodeTarget: 9 };
      },
    },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      chunks: ['alpha'],
      emit: { message: { type: 'static', content: 'Alpha answer' }, options: ['Operatore'] },
      after: (_self, _context, special) =>
        special.selectedOption === 'Operatore'
          ? {
              handoff: {
                reason: 'asked for a person',
                queue: 'support',
                summary: 'The user asked about alpha.',
                message: 'Un operatore ti risponderà a breve.',
                returnOption: BACK,
              },
            }
          : undefined,
    },
    { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('Beta answer') },
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
    {
      id: 6,
      type: 'emit',
      parent: 2,
      chunks: ['delta'],
      before: (_self, context) => context.handoff({ reason: 'delta needs a person', queue: 'support' }),
      emit: say('Ti metto in contatto con un collega.'),
    },
    { id: 9, type: 'emit', parent: 2, emit: say('Sorry.') },
  ];
}

function handoffAgent(afterRun?: () => void) {
  const store = new InMemorySessionStore();
  const agent = testAgent(handoffNodes(afterRun), {
    sessionStore: store,
    vectors: { ...ROUTING_VECTORS, [BACK]: [0, 1, 0, 0] },
  });
  return { agent, store };
}

/** A session handed off through node 3's after (alpha, then the "Operatore" option). */
async function handedOff() {
  const { agent, store } = handoffAgent();
  await agent.send('s', 'alpha');
  const output = await agent.send('s', 'Operatore', { selectedOption: 'Operatore' });
  return { agent, store, output };
}

describe('human handoff (docs/concepts.md §11)', () => {
  it('an after output hands off: the notice with the return option, status, state, a trace event and a history row', async () => {
    const { agent, store, output } = await handedOff();
    expect(output.status).toBe('handed-off');
    expect(output.messages.map((message) => [message.content, message.options, message.nodeId])).toEqual([
      ['Un operatore ti risponderà a breve.', [BACK], 3],
    ]);
    expect(output.handoff).toMatchObject({
      reason: 'asked for a person',
      queue: 'support',
      summary: 'The user asked about alpha.',
      turn: 2,
      nodeId: 3,
      operator: null,
    });
    expect(eventsOf(output.trace, 'handoff')).toEqual([
      {
        type: 'handoff',
        transition: { type: 'start', queue: 'support', reason: 'asked for a person', nodeId: 3 },
      },
    ]);
    const history = await agent.history('s');
    expect(history.slice(2).map((entry) => [entry.role, entry.content])).toEqual([
      ['user', 'Operatore'],
      ['assistant', 'Un operatore ti risponderà a breve.'],
      ['system', 'The conversation was handed to people (queue "support"): asked for a person'],
    ]);
    expect((await store.load('s'))?.handoff?.queue).toBe('support');
  });

  it('while handed off, user messages are kept for the operators and the tree does not run', async () => {
    const { agent } = await handedOff();
    const output = await agent.send('s', 'beta');
    expect(output.status).toBe('handed-off');
    expect(output.turn).toBe(3);
    expect(output.messages).toEqual([]);
    expect(executed(output)).toEqual([]);
    expect(output.trace.map((event) => event.type)).toEqual(['turn-start', 'handoff']);
    expect(eventsOf(output.trace, 'handoff')[0]!.transition).toEqual({ type: 'held', queue: 'support' });
    expect((await agent.history('s')).at(-1)).toMatchObject({ role: 'user', content: 'beta', turn: 3 });
  });

  it('one operator claims; others are refused unless they take over; only the holder writes; release', async () => {
    const { agent } = await handedOff();
    const claimed = await agent.handoffAction('s', { type: 'claim', operator: anna });
    expect(claimed.handoff?.operator).toEqual(anna);
    expect(claimed.entries.map((entry) => entry.content)).toEqual(['Anna joined the conversation.']);
    expect(claimed.event).toEqual({ type: 'handoff', transition: { type: 'claim', operator: anna } });
    // A second claim by the same operator changes nothing.
    expect((await agent.handoffAction('s', { type: 'claim', operator: anna })).entries).toEqual([]);

    const refused = await rejection(agent.handoffAction('s', { type: 'claim', operator: bruno }));
    expect(TreeAgentError.hasCode(refused, 'HANDOFF') && refused.details).toMatchObject({
      state: 'claimed',
      operatorId: 'anna',
    });
    const notHolder = await rejection(
      agent.handoffAction('s', { type: 'reply', operator: bruno, reply: { content: 'hi' } }),
    );
    expect((notHolder as TreeAgentError).code).toBe('HANDOFF');

    const reply = await agent.handoffAction('s', {
      type: 'reply',
      operator: anna,
      reply: { content: 'Ciao, sono Anna.', options: ['Sì', 'No'] },
    });
    expect(reply.entries).toEqual([
      expect.objectContaining({
        role: 'assistant',
        content: 'Ciao, sono Anna.',
        operator: anna,
        options: ['Sì', 'No'],
        turn: 2,
      }),
    ]);
    await agent.handoffAction('s', { type: 'release', operator: anna });
    const takeOver = await agent.handoffAction('s', { type: 'claim', operator: bruno });
    expect(takeOver.handoff?.operator).toEqual(bruno);
    const taken = await agent.handoffAction('s', { type: 'claim', operator: anna, takeOver: true });
    expect(taken.handoff?.operator).toEqual(anna);
    const rows = (await agent.history('s')).filter((entry) => entry.role !== 'user');
    expect(rows.slice(3).map((entry) => entry.content)).toEqual([
      'Anna joined the conversation.',
      'Ciao, sono Anna.',
      'Anna left the conversation; it waits for another operator.',
      'Bruno joined the conversation.',
      'Anna joined the conversation.',
    ]);
  });

  it('transfer: to an operator, who holds it at once; to another team, where it waits; not from another holder', async () => {
    const { agent } = await handedOff();
    await agent.handoffAction('s', { type: 'claim', operator: anna });
    const refused = await rejection(
      agent.handoffAction('s', { type: 'transfer', operator: bruno, to: { queue: 'sales' } }),
    );
    expect(TreeAgentError.hasCode(refused, 'HANDOFF')).toBe(true);
    const toBruno = await agent.handoffAction('s', {
      type: 'transfer',
      operator: anna,
      to: { operator: bruno },
    });
    expect(toBruno.handoff?.operator).toEqual(bruno);
    expect(toBruno.entries.map((entry) => entry.content)).toEqual(['Bruno joined the conversation.']);
    const toSales = await agent.handoffAction('s', {
      type: 'transfer',
      operator: bruno,
      to: { queue: 'sales' },
    });
    expect(toSales.handoff).toMatchObject({ queue: 'sales', operator: null, claimedAt: null });
    expect((await agent.inspectSession('s'))?.handoff?.queue).toBe('sales');
  });

  it('an operator cannot write before claiming, nor act on a session that is not handed off', async () => {
    const { agent } = await handedOff();
    const unclaimed = await rejection(
      agent.handoffAction('s', { type: 'reply', operator: anna, reply: { content: 'x' } }),
    );
    expect(TreeAgentError.hasCode(unclaimed, 'HANDOFF') && unclaimed.details.state).toBe('not-claimed');
    await agent.send('other', 'beta');
    for (const id of ['other', 'never-seen']) {
      const error = await rejection(agent.handoffAction(id, { type: 'claim', operator: anna }));
      expect(TreeAgentError.hasCode(error, 'HANDOFF') && error.details.state).toBe('not-handed-off');
    }
  });

  it('hand back to the default: the next message runs from the primary agent', async () => {
    const { agent, store } = await handedOff();
    await agent.handoffAction('s', { type: 'claim', operator: anna });
    const ended = await agent.handoffAction('s', { type: 'end', operator: anna, outcome: 'handed-back' });
    expect(ended.handoff).toBeNull();
    expect(ended.event).toEqual({
      type: 'handoff',
      transition: { type: 'end', outcome: 'handed-back', operator: anna, nodeTarget: null },
    });
    expect((await store.load('s'))?.lastNodeId).toBeNull();
    const next = await agent.send('s', 'beta');
    expect(next.status).toBe('answered');
    expect(next.messages[0]!.content).toBe('Beta answer');
    expect(next.handoff).toBeUndefined();
    expect(
      (await agent.history('s')).some(
        (entry) => entry.content === 'Anna handed the conversation back to the assistant.',
      ),
    ).toBe(true);
  });

  it('hand back to a node, with the rules of nodeTarget; a bad target changes nothing', async () => {
    const { agent, store } = await handedOff();
    await agent.handoffAction('s', { type: 'claim', operator: anna });
    const before = await store.load('s');
    for (const [target, code] of [
      [{ nodeTarget: 99 }, 'UNKNOWN_NODE'],
      [{ nodeTarget: 1 }, 'INVALID_STEP'],
      [{ nodeTarget: 4, resume: true }, 'INVALID_STEP'],
    ] as const) {
      const error = await rejection(
        agent.handoffAction('s', { type: 'end', operator: anna, outcome: 'handed-back', target }),
      );
      expect((error as TreeAgentError).code).toBe(code);
    }
    expect(await store.load('s')).toEqual(before);
    await agent.handoffAction('s', {
      type: 'end',
      operator: anna,
      outcome: 'handed-back',
      target: { nodeTarget: 4, step: 'before' },
    });
    // A message that matches nothing: the agent continues at node 4 anyway, once.
    const next = await agent.send('s', 'nothing matches this');
    expect(executed(next)).toEqual([4]);
    expect(next.messages[0]!.content).toBe('Beta answer');
    expect((await store.load('s'))?.startAt).toBeNull();
  });

  it('close ends the handoff too; another operator may close only by taking over', async () => {
    const { agent } = await handedOff();
    await agent.handoffAction('s', { type: 'claim', operator: anna });
    expect(
      (await rejection(
        agent.handoffAction('s', { type: 'end', operator: bruno, outcome: 'closed' }),
      )) as TreeAgentError,
    ).toMatchObject({
      code: 'HANDOFF',
    });
    const closed = await agent.handoffAction('s', {
      type: 'end',
      operator: bruno,
      outcome: 'closed',
      takeOver: true,
    });
    expect(closed.entries[0]!.content).toBe('Bruno closed the conversation; the assistant answers again.');
    expect((await agent.send('s', 'beta')).status).toBe('answered');
  });

  it('a handoff during a fallback: context.handoff in the fallback, the apology, then the notice', async () => {
    const { agent } = handoffAgent();
    const output = await agent.send('s', 'gamma');
    expect(output.status).toBe('handed-off');
    expect(eventsOf(output.trace, 'fallback')).toHaveLength(1);
    expect(output.messages.map((message) => message.content)).toEqual(['Sorry.', 'Ti passo a un collega.']);
    expect(output.handoff).toMatchObject({ reason: 'the assistant failed', queue: 'default', nodeId: 2 });
    expect((await agent.send('s', 'beta')).status).toBe('handed-off');
  });

  it('beforeRun hands off before the tree runs; context.handoff in a before lets the node answer first', async () => {
    const { agent } = handoffAgent();
    const urgent = await agent.send('a', 'urgent');
    expect(urgent.status).toBe('handed-off');
    expect(executed(urgent)).toEqual([]);
    expect(urgent.messages).toEqual([]);
    expect(urgent.handoff).toMatchObject({ queue: 'vip', nodeId: 1 });

    const delta = await agent.send('b', 'delta');
    expect(delta.status).toBe('handed-off');
    expect(delta.messages.map((message) => message.content)).toEqual([
      'Ti metto in contatto con un collega.',
    ]);
    expect(delta.handoff).toMatchObject({ reason: 'delta needs a person', nodeId: 6 });
  });

  it('the return option hands the session back and the message runs through the tree', async () => {
    const { agent } = await handedOff();
    const back = await agent.send('s', BACK);
    expect(back.status).toBe('answered');
    expect(back.messages[0]!.content).toBe('Beta answer');
    expect(eventsOf(back.trace, 'handoff')[0]!.transition).toEqual({
      type: 'end',
      outcome: 'user-returned',
      operator: null,
      nodeTarget: null,
    });
    const history = await agent.history('s');
    expect(history.slice(-3).map((entry) => entry.role)).toEqual(['user', 'system', 'assistant']);
  });

  it('concurrent user messages and operator replies during a handoff: all kept, in order, none lost', async () => {
    const { agent } = await handedOff();
    await agent.handoffAction('s', { type: 'claim', operator: anna });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 2
          ? agent.handoffAction('s', { type: 'reply', operator: anna, reply: { content: `op ${i}` } })
          : agent.send('s', `user ${i}`),
      ),
    );
    const turns = results.flatMap((result) => ('turn' in result ? [result.turn] : [])).sort((a, b) => a - b);
    expect(turns).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    const history = await agent.history('s');
    const contents = history.map((entry) => entry.content);
    for (let i = 0; i < 12; i++) expect(contents).toContain(i % 3 === 2 ? `op ${i}` : `user ${i}`);
    // Turn numbers never go back: each row was appended after the previous commit.
    const numbers = history.map((entry) => entry.turn);
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
  });

  it('a turn that hands off and then fails saves nothing: the session is not handed off', async () => {
    let explode = false;
    const { agent, store } = handoffAgent(() => {
      if (explode) throw new Error('afterRun failed');
    });
    await agent.send('s', 'alpha');
    explode = true;
    const error = await rejection(agent.send('s', 'Operatore', { selectedOption: 'Operatore' }));
    expect((error as TreeAgentError).code).toBe('CALLBACK_ERROR');
    expect((await store.load('s'))?.handoff ?? null).toBeNull();
    expect((await agent.history('s')).map((entry) => entry.content)).toEqual(['alpha', 'Alpha answer']);
  });

  it('a malformed handoff is INVALID_CALLBACK_OUTPUT naming the node and the field', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: say('A'),
        after: () => ({ handoff: { queue: 'x' } as never }),
      },
      {
        id: 4,
        type: 'emit',
        parent: 2,
        chunks: ['beta'],
        before: (_s, context) => context.handoff({ reason: 'r', queue: 'no spaces!' }),
        emit: say('B'),
      },
    ]);
    await agent.send('s', 'alpha');
    const missing = await rejection(agent.send('s', 'again'));
    expect(missing).toMatchObject({ code: 'INVALID_CALLBACK_OUTPUT', nodeId: 3, callback: 'after' });
    expect((missing as Error).message).toContain('handoff.reason');
    const badQueue = await rejection(agent.send('t', 'beta'));
    expect(badQueue).toMatchObject({
      code: 'INVALID_CALLBACK_OUTPUT',
      nodeId: 4,
      callback: 'context.handoff',
    });
  });
});
