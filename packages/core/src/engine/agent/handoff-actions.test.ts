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
});
