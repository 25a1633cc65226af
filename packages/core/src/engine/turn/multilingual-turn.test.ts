import { describe, expect, it } from 'vitest';
import type { LanguageDetector } from '../../model/language-detector.js';
import { InMemorySessionStore } from '../../session/in-memory-session-store.js';
import { ExactEmbedder } from '../../test/exact-embedder.js';
import { ScriptedLanguageModel } from '../../test/scripted-language-model.js';
import { defineTree } from '../../tree/define-tree.js';
import type { NodeDefinition, TreeDefinition } from '../../tree/node-definition.js';
import { TreeAgent, type TreeAgentOptions } from '../agent/tree-agent.js';

/** Every message routes by its first word: "alpha…" to the greeting, "beta…" to the handoff. */
const VECTORS: Record<string, number[]> = { alpha: [1, 0, 0], beta: [0, 1, 0], gamma: [0, 0, 1] };
const byFirstWord = (text: string) => VECTORS[text.toLowerCase().split(/[\s,]/)[0]!] ?? [0, 0, 0];
const embedder = () => new ExactEmbedder({ vectors: VECTORS, fallback: byFirstWord });

const NODES: NodeDefinition[] = [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  {
    id: 3,
    type: 'emit',
    parent: 2,
    chunks: ['alpha'],
    emit: {
      message: { type: 'static', content: { it: 'Ciao! Come posso aiutarti?', en: 'Hi! How can I help?' } },
      options: [{ it: 'Spedizioni', en: 'Shipping' }, 'FAQ'],
    },
  },
  {
    id: 4,
    type: 'empty',
    parent: 2,
    chunks: ['beta'],
    after: () => ({
      handoff: {
        reason: 'asked for a person',
        message: { it: 'Un operatore ti risponderà a breve.', en: 'An operator will answer shortly.' },
        returnOption: { it: "Torna all'assistente", en: 'Back to the assistant' },
      },
    }),
  },
  // Only Italian: an English session gets the default language's text, never an empty message.
  { id: 5, type: 'guardrail', parent: 2, chunks: ['gamma'], warning: { it: 'Per favore, niente insulti.' } },
];

/** A detector labelled as a mock: it says "en" for messages that contain "hello", "it" for "ciao". */
const mockDetector = (): LanguageDetector & { calls: string[] } => {
  const calls: string[] = [];
  return {
    id: 'mock',
    calls,
    detect(text) {
      calls.push(text);
      return text.includes('hello') ? 'en' : text.includes('ciao') ? 'it' : null;
    },
  };
};

function agentOf(
  definition: Partial<TreeDefinition> = {},
  options: Partial<TreeAgentOptions> = {},
): TreeAgent {
  return new TreeAgent({
    tree: defineTree({ languages: ['it', 'en'], nodes: NODES, ...definition }),
    embedder: embedder(),
    models: new ScriptedLanguageModel({ answers: 'scripted' }),
    ...options,
  });
}

describe('a tree that speaks several languages', () => {
  it("sends every text in the session's language fixed from the client's locale", async () => {
    const agent = agentOf({}, { languageDetector: mockDetector() });
    expect(await agent.setSessionLanguage('s-en', 'en-GB')).toBe('en');
    const greeting = await agent.send('s-en', 'alpha ciao');
    expect(greeting.messages[0]).toMatchObject({
      content: 'Hi! How can I help?',
      options: ['Shipping', 'FAQ'],
    });
    const handedOff = await agent.send('s-en', 'beta');
    expect(handedOff.messages.at(-1)).toMatchObject({
      content: 'An operator will answer shortly.',
      options: ['Back to the assistant'],
    });
    expect(handedOff.handoff).toMatchObject({ message: 'An operator will answer shortly.' });
    // The English return option (typed as the user sees it) hands the session back.
    const back = await agent.send('s-en', 'back to the assistant');
    expect(back.trace).toContainEqual(
      expect.objectContaining({
        type: 'handoff',
        transition: expect.objectContaining({ type: 'end', outcome: 'user-returned' }),
      }),
    );
  });

  it('a warning given per language needs no model (it is not a generated one)', async () => {
    const agent = agentOf({}, { models: {} });
    await agent.setSessionLanguage('s1', 'it');
    expect((await agent.send('s1', 'gamma')).messages[0]!.content).toBe('Per favore, niente insulti.');
  });

  it("falls back to the default language for a text missing in the session's language", async () => {
    const agent = agentOf();
    await agent.setSessionLanguage('s1', 'en');
    const output = await agent.send('s1', 'gamma');
    expect(output.messages[0]).toMatchObject({ content: 'Per favore, niente insulti.', isWarning: true });
  });

  it('detects the language from the first message that shows one, then keeps it', async () => {
    const detector = mockDetector();
    const store = new InMemorySessionStore();
    const agent = agentOf({}, { languageDetector: detector, sessionStore: store });
    // "alpha" shows no language: the default (Italian) answers and the next message tries again.
    expect((await agent.send('s1', 'alpha')).messages[0]!.content).toBe('Ciao! Come posso aiutarti?');
    expect((await store.load('s1'))!.language ?? null).toBeNull();
    expect((await agent.send('s1', 'alpha hello there')).messages[0]!.content).toBe('Hi! How can I help?');
    expect((await store.load('s1'))!.language).toBe('en');
    // Fixed: an Italian message later does not change it, and the detector is not asked again.
    expect((await agent.send('s1', 'alpha ciao a tutti')).messages[0]!.content).toBe('Hi! How can I help?');
    expect(detector.calls).toEqual(['alpha', 'alpha hello there']);
  });

  it('a message of fewer than three words answers in its language but fixes nothing', async () => {
    const detector = mockDetector();
    const store = new InMemorySessionStore();
    const agent = agentOf({}, { languageDetector: detector, sessionStore: store });
    expect((await agent.send('s1', 'alpha hello')).messages[0]!.content).toBe('Hi! How can I help?');
    expect((await store.load('s1'))!.language ?? null).toBeNull();
    expect((await agent.send('s1', 'alpha ciao a tutti')).messages[0]!.content).toBe(
      'Ciao! Come posso aiutarti?',
    );
    expect((await store.load('s1'))!.language).toBe('it');
  });

  it('a tree without languages stores no language in the session', async () => {
    const store = new InMemorySessionStore();
    const agent = new TreeAgent({
      tree: defineTree({ nodes: NODES.slice(0, 3) }),
      embedder: embedder(),
      sessionStore: store,
    });
    await agent.send('s1', 'alpha, hello there');
    expect(await store.load('s1')).not.toHaveProperty('language');
  });

  it('a locale fixed at the start wins over what the first message looks like', async () => {
    const detector = mockDetector();
    const agent = agentOf({}, { languageDetector: detector });
    expect(await agent.setSessionLanguage('s1', 'it-IT')).toBe('it');
    expect((await agent.send('s1', 'alpha hello there')).messages[0]!.content).toBe(
      'Ciao! Come posso aiutarti?',
    );
    expect(detector.calls).toEqual([]);
  });

  it('a locale the tree does not speak fixes nothing: the first message decides', async () => {
    const agent = agentOf({}, { languageDetector: mockDetector() });
    expect(await agent.setSessionLanguage('s1', 'de-DE')).toBeNull();
    expect((await agent.send('s1', 'alpha hello there')).messages[0]!.content).toBe('Hi! How can I help?');
  });

  it('refuses a malformed locale with INVALID_INPUT saying what to give', async () => {
    await expect(agentOf().setSessionLanguage('s1', 'english please')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/Invalid locale "english please".*"it", "en" or "it-IT"/),
    });
  });

  it('detects with the default identifier (eld) when none is given', async () => {
    const agent = agentOf();
    const english = await agent.send('s-en', 'alpha, could you tell me where my order is?');
    expect(english.messages[0]!.content).toBe('Hi! How can I help?');
    const italian = await agent.send('s-it', 'alpha, mi dici dove si trova il mio ordine?');
    expect(italian.messages[0]!.content).toBe('Ciao! Come posso aiutarti?');
  });

  it('a tree without languages sends plain strings as they are and detects nothing', async () => {
    const detector = mockDetector();
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
          ...NODES.slice(0, 2),
          {
            id: 3,
            type: 'emit',
            parent: 2,
            chunks: ['alpha'],
            emit: { message: { type: 'static', content: 'Ciao!' } },
          },
        ],
      }),
      embedder: embedder(),
      languageDetector: detector,
    });
    expect((await agent.send('s1', 'alpha hello')).messages[0]!.content).toBe('Ciao!');
    expect(await agent.setSessionLanguage('s1', 'en')).toBeNull();
    expect(detector.calls).toEqual([]);
  });

  it('callbacks read the session language and may return per-language texts', async () => {
    const agent = new TreeAgent({
      tree: defineTree({
        languages: ['it', 'en'],
        nodes: [
          ...NODES.slice(0, 2),
          {
            id: 3,
            type: 'emit',
            parent: 2,
            chunks: ['alpha'],
            emit: (_self, context) => ({
              message: {
                type: 'static',
                content: { it: `lingua ${context.language}`, en: `language ${context.language}` },
              },
            }),
          },
        ],
      }),
      embedder: embedder(),
    });
    await agent.setSessionLanguage('s1', 'en');
    expect((await agent.send('s1', 'alpha')).messages[0]!.content).toBe('language en');
  });
});
