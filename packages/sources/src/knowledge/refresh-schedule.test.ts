import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder, InMemoryVectorStore } from '@treeagent/core';
import { InMemorySourceStore } from '@treeagent/core/adapter';
import { afterAll, expect, test } from 'vitest';
import { helpTree } from '../test-support/crawl-scenario.js';
import { addSource } from './manage-sources.js';
import { refreshDueSources } from './refresh-schedule.js';
import { refreshSource } from './refresh-source.js';

const folder = mkdtempSync(join(tmpdir(), 'treeagent-schedule-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('a scheduled file source is refreshed when due, and only what changed is written', async () => {
  const file = join(folder, 'hours.md');
  writeFileSync(file, '# Hours\n\nOpen from 9 to 18.');
  let now = new Date('2026-12-06T08:00:00.000Z');
  const vectorStore = new InMemoryVectorStore();
  const context = {
    tree: helpTree,
    sourceStore: new InMemorySourceStore(),
    vectorStore,
    embedder: new HashedEmbedder(),
    now: () => now,
  };
  const source = await addSource(
    { kind: 'file', location: file, nodeId: 3, refreshMinutes: 60, options: { name: 'hours.md' } },
    context,
  );
  const texts = async () =>
    (await vectorStore.scroll({ collection: 'help:3', limit: 10 })).chunks.map((chunk) => chunk.text);

  expect((await refreshDueSources(context)).map((report) => report.written)).toEqual([1]);
  expect(await texts()).toEqual(['Open from 9 to 18.']);
  now = new Date('2026-12-06T08:30:00.000Z');
  writeFileSync(file, '# Hours\n\nOpen from 10 to 19.');
  expect(await refreshDueSources(context)).toEqual([]);
  now = new Date('2026-12-06T09:00:00.000Z');
  expect((await refreshDueSources(context)).map((report) => [report.changed, report.written])).toEqual([
    [1, 1],
  ]);
  expect(await texts()).toEqual(['Open from 10 to 19.']);
  now = new Date('2026-12-06T10:00:00.000Z');
  expect((await refreshDueSources(context)).map((report) => [report.unchanged, report.written])).toEqual([
    [1, 0],
  ]);
  expect(await context.sourceStore.getSource(source.id)).toMatchObject({
    status: 'ready',
    pages: 1,
    chunks: 1,
    refreshedAt: now,
  });

  rmSync(file);
  const failed = await refreshSource(source.id, context);
  expect(failed.source).toMatchObject({ status: 'failed' });
  expect(failed.source.error).toMatch(/hours\.md cannot be read .*previous content is kept/);
  expect(await texts()).toEqual(['Open from 10 to 19.']);
});

test('bad input to addSource says which field and how to fix it', async () => {
  const context = {
    tree: helpTree,
    sourceStore: new InMemorySourceStore(),
    vectorStore: new InMemoryVectorStore(),
    embedder: new HashedEmbedder(),
  };
  await expect(
    addSource({ kind: 'crawl', location: 'https://help.example/', nodeId: 2 }, context),
  ).rejects.toThrow(/Node 2 is not a query node/);
  await expect(addSource({ kind: 'crawl', location: 'help.example', nodeId: 3 }, context)).rejects.toThrow(
    /"help\.example" is not a URL: give an address with http:\/\/ or https:\/\/, such as/,
  );
  await expect(
    addSource({ kind: 'file', location: '/tmp/x.md', nodeId: 3, refreshMinutes: 1 }, context),
  ).rejects.toThrow(/refreshMinutes is 1: give a whole number of minutes, at least 5/);
  await expect(
    addSource({ kind: 'file', location: '/tmp/x.md', nodeId: 3, options: { depth: 2 } }, context),
  ).rejects.toThrow(/Unknown source option\(s\) depth: the options are maxPages/);
  expect(await context.sourceStore.listSources()).toEqual([]);
});
