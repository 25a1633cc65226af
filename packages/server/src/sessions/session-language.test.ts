import { defineTree, TreeAgent } from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';
import { describe, expect, it } from 'vitest';
import { postMessage, testApp } from '../test-support/fixtures.js';

/** A tree in Italian and English whose one answer every message reaches. */
function bilingualAgent(): TreeAgent {
  return new TreeAgent({
    tree: defineTree({
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
    }),
    embedder: new ExactEmbedder({ vectors: { ciao: [1, 0] }, fallback: [1, 0] }),
  });
}

async function create(app: ReturnType<typeof testApp>['app'], body: unknown) {
  const response = await app.request('/api/v1/sessions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

async function answer(
  app: ReturnType<typeof testApp>['app'],
  session: Record<string, unknown>,
  message: string,
) {
  const response = await postMessage(app, session as { sessionId: string; token: string }, { message });
  const output = (await response.json()) as { messages: { content: string }[] };
  return output.messages[0]!.content;
}

describe('POST /api/v1/sessions with the page locale', () => {
  it("fixes the session's language from the locale: the answers are in it whatever the message", async () => {
    const { app } = testApp({ agent: bilingualAgent() });
    const { response, body } = await create(app, { locale: 'en-GB' });
    expect(response.status).toBe(201);
    expect(body.language).toBe('en');
    expect(await answer(app, body, 'buongiorno, vorrei un aiuto per il mio ordine')).toBe('Hello!');
  });

  it('a locale the tree does not speak answers language null; the first message decides', async () => {
    const { app } = testApp({ agent: bilingualAgent() });
    const { body } = await create(app, { locale: 'de-DE' });
    expect(body.language).toBeNull();
    expect(await answer(app, body, 'buongiorno, vorrei un aiuto per il mio ordine')).toBe('Ciao!');
  });

  it('without a locale nothing changes: no language in the answer, detection on the first message', async () => {
    const { app } = testApp({ agent: bilingualAgent() });
    const { body } = await create(app, {});
    expect(body).not.toHaveProperty('language');
    expect(await answer(app, body, 'could you please help me with my order?')).toBe('Hello!');
  });

  it('refuses a malformed locale with 400 INVALID_REQUEST naming the field and the form', async () => {
    const { app } = testApp({ agent: bilingualAgent() });
    const { response, body } = await create(app, { locale: 'english please' });
    expect(response.status).toBe(400);
    expect(JSON.stringify(body)).toMatch(/locale/);
    expect(JSON.stringify(body)).toMatch(/it-IT/);
  });
});
