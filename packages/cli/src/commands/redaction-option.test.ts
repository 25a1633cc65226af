import { defineTree, InMemorySessionStore, type NodeDefinition, TreeAgent } from '@treeagent/core';
import { Redactor } from '@treeagent/core/privacy';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { describe, expect, it } from 'vitest';
import { devDefinition } from './dev.js';
import { redactionOption } from './redaction-option.js';
import { serveDefinition } from './serve.js';

const MESSAGE = 'il mio numero è 3471234567';

/** A turn of a tree whose step reads the user's phone number (as the bike shop's booking form does). */
async function turn(flags: { redact?: boolean; redactLive?: string }) {
  const seen: string[] = [];
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      chunks: ['numero'],
      emit: (_self, context) => {
        seen.push(context.input.original);
        return { message: { type: 'static', content: 'Grazie, ti richiamiamo.' } };
      },
    },
  ];
  const sessionStore = new InMemorySessionStore();
  const redaction = redactionOption(flags);
  const agent = new TreeAgent({
    tree: defineTree({ nodes }),
    embedder: new ExactEmbedder({
      vectors: {
        numero: [1, 0],
        [MESSAGE]: [1, 0],
        'il mio numero è [phone]': [1, 0],
      },
    }),
    models: new ScriptedLanguageModel({ answers: 'unused' }),
    sessionStore,
    ...(redaction ? { redaction } : {}),
  });
  await agent.send('s', MESSAGE);
  return { seen, stored: (await sessionStore.history('s'))[0]!.content };
}

describe('--redact and --redact-live (docs/privacy.md)', () => {
  it('--redact-live phone: the form step gets the number the user wrote, the store keeps [phone]', async () => {
    expect(await turn({ redact: true, redactLive: 'phone' })).toEqual({
      seen: [MESSAGE],
      stored: 'il mio numero è [phone]',
    });
    // Implies --redact.
    expect(await turn({ redactLive: 'phone, email' })).toEqual({
      seen: [MESSAGE],
      stored: 'il mio numero è [phone]',
    });
    expect(redactionOption({ redactLive: 'phone, email' })).toEqual({ liveTurn: ['phone', 'email'] });
  });

  it('--redact alone: the turn sees placeholders too; no flag: no redaction', async () => {
    expect(await turn({ redact: true })).toEqual({
      seen: ['il mio numero è [phone]'],
      stored: 'il mio numero è [phone]',
    });
    expect(redactionOption({})).toBeNull();
    expect(await turn({})).toEqual({ seen: [MESSAGE], stored: MESSAGE });
  });

  it('an unknown detector is refused, naming the ones in use', () => {
    expect(() => new Redactor(redactionOption({ redactLive: 'telefono' })!)).toThrow(
      /redaction.liveTurn: "telefono" is not a detector in use/,
    );
  });

  it('serve and dev both offer the flag', () => {
    for (const definition of [serveDefinition, devDefinition]) {
      expect(definition.options?.map((option) => option.flags)).toEqual(
        expect.arrayContaining(['--redact', '--redact-live <detectors>']),
      );
    }
  });
});
