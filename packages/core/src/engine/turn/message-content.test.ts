import { describe, expect, test } from 'vitest';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import type { FileMetadata } from '../../protocol/file-metadata.js';
import { ExactEmbedder } from '../../test/exact-embedder.js';
import { defineTree } from '../../tree/define-tree.js';
import { TreeAgent } from '../agent/tree-agent.js';
import { placeholdersIn, sourcesFromChunks, splitDynamicContent } from './message-content.js';

const receipt: FileMetadata = {
  id: 'f1',
  name: 'ricevuta.pdf',
  mimeType: 'application/pdf',
  origin: 'generated',
};
const map: FileMetadata = { id: 'f2', name: 'mappa.png', mimeType: 'image/png', origin: 'rag' };

describe('dynamic attachments', () => {
  test('each {{name.ext}} placeholder is replaced by the file with that name, in place', () => {
    expect(splitDynamicContent('Ecco {{ricevuta.pdf}} e la mappa: {{mappa.png}}.', [receipt, map])).toEqual([
      { type: 'text', text: 'Ecco ' },
      { type: 'file', file: receipt },
      { type: 'text', text: ' e la mappa: ' },
      { type: 'file', file: map },
      { type: 'text', text: '.' },
    ]);
  });

  test('a placeholder without a file stays text; a file without a placeholder is not shown', () => {
    expect(splitDynamicContent('Vedi {{altro.pdf}}', [receipt])).toEqual([
      { type: 'text', text: 'Vedi {{altro.pdf}}' },
    ]);
    expect(placeholdersIn('a {{x.txt}} b {{ y.csv }}')).toEqual(['x.txt', 'y.csv']);
  });

  test('an emit cannot attach a file of another session', async () => {
    const foreign: FileMetadata = { ...receipt, sessionId: 'someone-else' };
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['x'],
          emit: { message: { type: 'static', content: '{{ricevuta.pdf}}' }, dynamicAttachments: [foreign] },
        },
      ],
    });
    const agent = new TreeAgent({
      tree,
      embedder: new ExactEmbedder({ vectors: { x: [1] }, fallback: [1] }),
    });
    const error = await agent.send('me', 'x').catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'INVALID_CALLBACK_OUTPUT')).toBe(true);
    expect((error as Error).message).toMatch(/another session/);
  });
});

describe('sourcesFromChunks', () => {
  test('takes the title from extra and keeps the chunk id', () => {
    expect(
      sourcesFromChunks([{ id: 7, text: 'Reso in 30 giorni', extra: { title: 'Resi' }, similarity: 0.8 }]),
    ).toEqual([{ title: 'Resi', content: 'Reso in 30 giorni', chunkId: 7, extra: { title: 'Resi' } }]);
  });

  test('cites the URL a crawled page or an ingested document carries', () => {
    const extra = { title: 'Returns', url: 'https://help.example/returns#refunds' };
    expect(sourcesFromChunks([{ id: 'c1', text: 'Refunds in 14 days', extra, similarity: 0.9 }])).toEqual([
      {
        title: 'Returns',
        url: 'https://help.example/returns#refunds',
        content: 'Refunds in 14 days',
        chunkId: 'c1',
        extra,
      },
    ]);
  });
});
