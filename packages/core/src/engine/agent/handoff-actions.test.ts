import { describe, expect, it } from 'vitest';
import type { NodeDefinition } from '../../index.js';
import { Redactor } from '../../privacy/redactor.js';
import { InMemorySessionStore } from '../../session/in-memory-session-store.js';
import { testAgent } from '../../test-support/engine-fixtures.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import { runHandoffAction } from './handoff-actions.js';

const anna = { id: 'anna', name: 'Anna' };
const EMAIL = 'giulia.verdi@example.org';

/** Root 1 hands off every message that says "human"; emit 3 offers the user's own words as an option. */
const nodes: NodeDefinition[] = [
  {
    id: 1,
    type: 'root',
    beforeRun: (_self, context) =>
      /human/.test(context.input.original) ? { handoff: { reason: 'asked', queue: 'support' } } : undefined,
  },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  {
    id: 3,
    type: 'emit',
    parent: 2,
    chunks: ['alpha'],
    emit: (_self, context) => ({
      message: { type: 'static', content: `Is ${context.input.original} right?` },
      options: [`Yes, ${context.input.original}`, 'No'],
    }),
  },
];

/** With `liveTurn: ['email']` the emit sees the address and echoes it into its option. */
function agentWithStore() {
  const sessionStore = new InMemorySessionStore();
  const agent = testAgent(nodes, {
    sessionStore,
    redaction: { liveTurn: ['email'] },
    vectors: { alpha: [1, 0, 0, 0], [`alpha ${EMAIL}`]: [1, 0, 0, 0], human: [0, 1, 0, 0] },
  });
  return { agent, sessionStore };
}

describe('redaction of what operators and emits store (docs/privacy.md)', () => {
  it("an operator's reply and its options are stored redacted; the update the user gets keeps them", async () => {
    const { agent, sessionStore } = agentWithStore();
    await agent.send('s', 'I want a human');
    const runtime = { tree: agent.tree, now: () => new Date() } as AgentRuntime;
    const redactor = new Redactor({});
    await runHandoffAction(sessionStore, runtime, 's', { type: 'claim', operator: anna }, redactor);
    const reply = {
      content: `I will write to ${EMAIL} or call +33 6 12 34 56 78.`,
      options: [`Yes, ${EMAIL}`, 'No'],
    };
    const update = await runHandoffAction(
      sessionStore,
      runtime,
      's',
      { type: 'reply', operator: anna, reply },
      redactor,
    );
    expect(update.entries[0]).toMatchObject({ content: reply.content, options: reply.options });
    const stored = (await sessionStore.history('s')).at(-1)!;
    expect(stored).toMatchObject({
      role: 'assistant',
      operator: anna,
      content: 'I will write to [email] or call [phone].',
      options: ['Yes, [email]', 'No'],
    });
    expect(JSON.stringify(await sessionStore.history('s'))).not.toContain(EMAIL);
  });

  it("an emit's option labels are stored redacted, in the history and in the pending message", async () => {
    const { agent, sessionStore } = agentWithStore();
    await agent.send('s', `alpha ${EMAIL}`);
    const history = await sessionStore.history('s');
    expect((await agent.send('t', `alpha ${EMAIL}`)).messages[0]!.options).toEqual([
      `Yes, alpha ${EMAIL}`,
      'No',
    ]);
    expect(history.at(-1)).toMatchObject({
      content: 'Is alpha [email] right?',
      options: ['Yes, alpha [email]', 'No'],
    });
    const record = await sessionStore.load('s');
    expect(record!.pendingMessage!.options).toEqual(['Yes, alpha [email]', 'No']);
    expect(JSON.stringify({ history, record })).not.toContain(EMAIL);
  });

  it("TreeAgent.handoffAction stores an operator's reply with the agent's redaction", async () => {
    const { agent, sessionStore } = agentWithStore();
    await agent.send('s', 'I want a human');
    await agent.handoffAction('s', { type: 'claim', operator: anna });
    await agent.handoffAction('s', {
      type: 'reply',
      operator: anna,
      reply: { content: `Write to ${EMAIL}.` },
    });
    expect((await sessionStore.history('s')).at(-1)).toMatchObject({ content: 'Write to [email].' });
    expect(JSON.stringify(await sessionStore.history('s'))).not.toContain(EMAIL);
  });

  it('with liveTurn, the user may pick an option the store keeps redacted (as the client shows it)', async () => {
    const { agent, sessionStore } = agentWithStore();
    const shown = (await agent.send('s', `alpha ${EMAIL}`)).messages[0]!.options;
    expect(shown[0]).toBe(`Yes, alpha ${EMAIL}`);
    // Picked as the client shows it: accepted (not INVALID_INPUT), kept redacted.
    await agent.send('s', '', { selectedOption: shown[0]! });
    const picked = (await sessionStore.history('s')).filter((entry) => entry.role === 'user').at(-1);
    expect(picked).toMatchObject({ selectedOption: 'Yes, alpha [email]' });
  });
});
