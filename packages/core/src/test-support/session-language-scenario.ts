import { expect } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import type { SessionStore } from '../session/session-store.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';

/** Every message routes to the greeting (one node, one direction). */
const embedder = () => new ExactEmbedder({ vectors: { ciao: [1, 0] }, fallback: [1, 0] });

const tree = defineTree({
  languages: ['it', 'en'],
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      chunks: ['ciao'],
      emit: { message: { type: 'static', content: { it: 'Ciao!', en: 'Hello!' } } },
    },
  ],
});

/**
 * A session's language outlives the process (docs/multilingual-trees.md): fixed from a locale, or
 * detected from the first message by the default identifier, it is read back by a new agent on a
 * new store over the same storage. `open` opens a store on that storage; the scenario closes each.
 */
export async function sessionLanguageSurvivesRestart(open: () => Promise<SessionStore>): Promise<void> {
  const first = await open();
  const before = new TreeAgent({ tree, embedder: embedder(), sessionStore: first });
  expect(await before.setSessionLanguage('from-locale', 'en-US')).toBe('en');
  const detected = await before.send('detected', 'could you tell me where my order is, please?');
  expect(detected.messages[0]!.content).toBe('Hello!');
  await first.close?.();

  const second = await open();
  const after = new TreeAgent({ tree, embedder: embedder(), sessionStore: second });
  try {
    // Italian messages now: the sessions keep the language they had.
    expect((await after.send('from-locale', 'buongiorno, vorrei sapere una cosa')).messages[0]!.content).toBe(
      'Hello!',
    );
    expect((await after.send('detected', 'dove si trova il mio ordine?')).messages[0]!.content).toBe(
      'Hello!',
    );
    expect((await second.load('from-locale'))!.language).toBe('en');
    // A new session on the restarted agent is detected afresh.
    expect(
      (await after.send('new', 'buongiorno, vorrei sapere dove si trova il mio ordine')).messages[0]!.content,
    ).toBe('Ciao!');
  } finally {
    await second.close?.();
  }
}
