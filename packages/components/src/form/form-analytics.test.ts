import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTree, TreeAgent } from '@treeagent/core';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { afterAll, describe, expect, test } from 'vitest';
import { form } from './form.js';
import { formFallback } from './form-fallback.js';

const dir = mkdtempSync(join(tmpdir(), 'treeagent-form-analytics-'));
const store = new SqliteSessionStore(join(dir, 'sessions.db'));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

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
      name: 'shipping',
      chunks: ['how much is shipping', 'shipping costs', 'delivery price'],
      emit: { message: { type: 'static', content: 'Shipping is 7.90.' } },
    },
    {
      id: 4,
      type: 'component',
      parent: 2,
      idBase: 100,
      use: form({
        name: 'plan',
        language: 'en',
        triggers: ['I want a new phone plan', 'change my plan', 'subscribe to a plan'],
        slots: [
          {
            name: 'plan',
            type: 'enum',
            question: 'Which plan: basic or premium?',
            options: { basic: ['basic'], premium: ['premium'] },
          },
          { name: 'phone', type: 'phone', question: 'Your phone number?', country: '44' },
        ],
        onComplete: () => 'Done.',
      }),
    },
    {
      id: 9,
      type: 'emit',
      parent: 2,
      name: 'sorry',
      emit: { message: { type: 'static', content: 'Sorry, I can help with plans and shipping.' } },
    },
  ],
});

describe('analytics of a form conversation', () => {
  test('messages the form took through the fallback are not unmatched; a message nothing took is', async () => {
    const agent = new TreeAgent({ tree, sessionStore: store });
    const form = ['I want a new phone plan', 'hmm let me think', 'basic'];
    const outputs = [];
    for (const message of form) outputs.push(await agent.send('with-form', message));
    // The form took "hmm let me think" back through the agent's fallback and asked again.
    expect(outputs[1]!.status).toBe('fallback-no-match');
    expect(outputs[1]!.messages.map((message) => message.content).join(' ')).toContain('Which plan');
    expect((await agent.send('without-form', 'do you sell bicycles?')).status).toBe('fallback-no-match');

    const unmatched = await store.analytics().unmatched();
    expect(unmatched.map((row) => row.message)).toEqual(['do you sell bicycles?']);
  });
});
