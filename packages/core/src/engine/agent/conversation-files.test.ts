import { describe, expect, it } from 'vitest';
import type { Context } from '../../context/context.js';
import { InMemorySessionStore } from '../../session/in-memory-session-store.js';
import type { SessionStore } from '../../session/session-store.js';
import { ExactEmbedder } from '../../test/exact-embedder.js';
import { rejection } from '../../test/rejection.js';
import { defineTree } from '../../tree/define-tree.js';
import { TreeAgent } from './tree-agent.js';

/**
 * The File Agent over a whole conversation (issue #15 point 4): files uploaded in earlier turns,
 * made in code, and behind retrieved chunks are all listed, by origin, in later turns, because the
 * session keeps them; a failed turn keeps none of its files.
 */
const AXES = ['ecco la foto', 'fammi un report', 'manuale', 'quali file', 'rompi'];
const vectors: Record<string, number[]> = {};
AXES.forEach((text, i) => {
  vectors[text] = AXES.map((_, j) => (i === j ? 1 : 0));
});
vectors['Manuale della bici: freni e cambio.'] = vectors.manuale!;

const listing = (context: Context) =>
  (['chat', 'generated', 'rag'] as const)
    .map(
      (origin) =>
        `${origin}: ${context.fileAgent
          .list(origin)
          .map((file) => file.name)
          .join(', ')}`,
    )
    .join('; ');

function filesAgent(sessionStore: SessionStore = new InMemorySessionStore()): TreeAgent {
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['ecco la foto'],
        emit: { message: { type: 'static', content: 'Ricevuta' } },
      },
      {
        id: 4,
        type: 'emit',
        parent: 2,
        chunks: ['fammi un report'],
        emit: async (_self, context) => {
          const report = await context.fileAgent.create({
            name: 'report.txt',
            mimeType: 'text/plain',
            data: 'ok',
          });
          return { message: { type: 'static', content: 'Ecco il report' }, attachments: [report] };
        },
      },
      {
        id: 5,
        type: 'query',
        parent: 2,
        chunks: [
          'manuale',
          {
            id: 'man',
            text: 'Manuale della bici: freni e cambio.',
            forRag: true,
            extra: { file: { id: 'kb-manual', name: 'manuale.pdf', mimeType: 'application/pdf' } },
          },
        ],
        query: { query: 'manuale', threshold: 0.5 },
        links: { answer: 6 },
        after: (_self, _context, _special, links) => ({ nodeTarget: links.answer, step: 'before' }),
      },
      {
        id: 6,
        type: 'emit',
        parent: 2,
        chunks: ['quali file'],
        emit: (_self, context) => ({ message: { type: 'static', content: listing(context) } }),
      },
      {
        id: 7,
        type: 'emit',
        parent: 2,
        chunks: ['rompi'],
        emit: async (_self, context) => {
          await context.fileAgent.create({ name: 'lost.txt', mimeType: 'text/plain', data: 'x' });
          throw new Error('broken after creating a file');
        },
      },
    ],
  });
  return new TreeAgent({ tree, embedder: new ExactEmbedder({ vectors }), sessionStore });
}

/** Plays the conversation and returns what the last turn lists. */
async function playConversation(agent: TreeAgent, session: string): Promise<string | null> {
  const photo = await agent.fileStore.put({
    name: 'foto.jpg',
    mimeType: 'image/jpeg',
    data: new Uint8Array([1, 2, 3]),
    origin: 'chat',
    sessionId: session,
  });
  await agent.send(session, 'ecco la foto', { attachments: [photo] });
  await agent.send(session, 'fammi un report');
  await agent.send(session, 'manuale');
  const last = await agent.send(session, 'quali file');
  return last.messages[0]!.content;
}

describe('the File Agent across a conversation', () => {
  it('lists files uploaded earlier, made in code and behind retrieved chunks, by origin', async () => {
    const agent = filesAgent();
    expect(await playConversation(agent, 's')).toBe(
      'chat: foto.jpg; generated: report.txt; rag: manuale.pdf',
    );
  });

  it('keeps them in the session record', async () => {
    const agent = filesAgent();
    await playConversation(agent, 's');
    const record = await agent.sessionStore.load('s');
    expect(record!.files!.map((file) => [file.origin, file.name])).toEqual([
      ['chat', 'foto.jpg'],
      ['generated', 'report.txt'],
      ['rag', 'manuale.pdf'],
    ]);
  });

  it('a failed turn keeps none of its files', async () => {
    const agent = filesAgent();
    await playConversation(agent, 's');
    expect((await rejection(agent.send('s', 'rompi'))).code).toBe('CALLBACK_ERROR');
    const record = await agent.sessionStore.load('s');
    expect(record!.files!.map((file) => file.name)).not.toContain('lost.txt');
  });

  it('each session has its own files', async () => {
    const agent = filesAgent();
    await playConversation(agent, 'a');
    const other = await agent.send('b', 'quali file');
    expect(other.messages[0]!.content).toBe('chat: ; generated: ; rag: ');
  });
});
