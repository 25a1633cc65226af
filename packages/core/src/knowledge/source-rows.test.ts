import { describe, expect, it } from 'vitest';
import { rowOfValues } from '../test-support/row-of-values.js';
import {
  KNOWLEDGE_PAGE_COLUMNS,
  KNOWLEDGE_SOURCE_COLUMNS,
  type KnowledgePageRow,
  type KnowledgeSourceRow,
  knowledgePageOfRow,
  knowledgePageValues,
  knowledgeSourceOfRow,
  knowledgeSourceValues,
} from './source-rows.js';
import type { KnowledgePage, KnowledgeSource } from './source-store.js';

const source: KnowledgeSource = {
  id: 's1',
  kind: 'crawl',
  location: 'https://shop.example/help',
  nodeId: 7,
  collection: 'shop:7',
  options: { maxPages: 20, include: ['/help/'] },
  refreshMinutes: 60,
  status: 'ready',
  createdAt: new Date('2026-12-06T09:00:00.000Z'),
  refreshedAt: new Date('2026-12-06T10:00:00.000Z'),
  error: null,
  pages: 3,
  chunks: 12,
};

const page: KnowledgePage = {
  url: 'https://shop.example/help/returns',
  title: 'Returns',
  etag: '"abc"',
  lastModified: null,
  contentHash: 'f'.repeat(64),
  chunks: 4,
  fetchedAt: new Date('2026-12-06T10:00:00.000Z'),
};

describe('knowledge source rows', () => {
  it('a source written as values reads back the same, from text (SQLite) or Date and jsonb (PostgreSQL)', () => {
    const row = rowOfValues<KnowledgeSourceRow>(KNOWLEDGE_SOURCE_COLUMNS, knowledgeSourceValues(source));
    expect(knowledgeSourceOfRow(row)).toEqual(source);
    expect(
      knowledgeSourceOfRow({
        ...row,
        options: source.options,
        created_at: source.createdAt,
        refreshed_at: source.refreshedAt,
      }),
    ).toEqual(source);
    const fresh = { ...source, status: 'new' as const, refreshedAt: null };
    expect(knowledgeSourceOfRow(rowOfValues(KNOWLEDGE_SOURCE_COLUMNS, knowledgeSourceValues(fresh)))).toEqual(
      fresh,
    );
  });

  it('a page is written with its source id first and reads back the same', () => {
    const values = knowledgePageValues('s1', page);
    expect(values[0]).toBe('s1');
    const row = rowOfValues<KnowledgePageRow>(KNOWLEDGE_PAGE_COLUMNS, values);
    expect(knowledgePageOfRow(row)).toEqual(page);
    expect(knowledgePageOfRow({ ...row, fetched_at: page.fetchedAt })).toEqual(page);
  });
});
