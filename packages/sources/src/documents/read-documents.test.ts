import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTree, HashedEmbedder, InMemoryVectorStore } from '@treeagent/core';
import { ingestDocuments } from '@treeagent/core/ingest';
import { describe, expect, test } from 'vitest';
import { makeDocx } from '../test-support/make-docx.js';
import { readDocument, readDocuments } from './read-documents.js';
import { readHtml } from './read-html.js';

const tree = defineTree({
  name: 'help',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'query', parent: 2, chunks: ['help'] },
  ],
});

async function chunksOf(files: Record<string, Uint8Array | string>) {
  const folder = mkdtempSync(join(tmpdir(), 'treeagent-documents-'));
  for (const [name, data] of Object.entries(files)) writeFileSync(join(folder, name), data);
  const documents = await readDocuments([folder], folder);
  const vectorStore = new InMemoryVectorStore();
  await ingestDocuments(documents, { tree, nodeId: 3, vectorStore, embedder: new HashedEmbedder() });
  const page = await vectorStore.scroll({ collection: 'help:3', limit: 100 });
  return page.chunks.map((chunk) => ({ text: chunk.text, ...chunk.extra }) as Record<string, unknown>);
}

const HTML_PAGE = `<!doctype html><html><head><title>Returns – Bike Shop help</title></head><body>
<nav><a href="/">Home</a> <a href="/shipping">Shipping</a> <a href="/contact">Contact us today</a></nav>
<main><article><h1>Returns</h1>
<p>${'You can return any bike or accessory within 30 days of delivery, unused and in its box. '.repeat(4)}</p>
<h2 id="refunds">Refunds</h2>
<p>${'The refund reaches the card you paid with within 14 days of the return arriving at our warehouse. '.repeat(3)}</p>
<h3><a id="damaged"></a>Damaged items</h3>
<p>${'A bike damaged in transit is replaced for free: send us a photo of the damage within 48 hours. '.repeat(3)}</p>
</article></main>
<footer><p>Bike Shop S.r.l. – all rights reserved – cookie settings</p></footer>
<script>window.tracking = 'do not index me';</script>
</body></html>`;

describe('readDocuments: HTML and Word files beside text, Markdown and PDF', () => {
  test('an HTML file: main content only, its title, each chunk with its heading path and anchor', async () => {
    const chunks = await chunksOf({ 'returns.html': HTML_PAGE });
    const text = chunks.map((chunk) => chunk.text).join('\n');
    expect(text).toContain('within 30 days of delivery');
    expect(text).not.toMatch(/all rights reserved|tracking|Contact us today/);
    const refund = chunks.find((chunk) => String(chunk.text).includes('refund reaches'))!;
    expect(refund).toMatchObject({
      title: 'Returns',
      heading: 'Refunds',
      anchor: 'refunds',
      _source: 'returns.html',
    });
    const damaged = chunks.find((chunk) => String(chunk.text).includes('damaged in transit'))!;
    expect(damaged).toMatchObject({ heading: 'Refunds > Damaged items', anchor: 'damaged' });
  });

  test('a Word document: the first heading is its title, Heading styles give the path and an anchor', async () => {
    const docx = makeDocx([
      { heading: 1, text: 'Warranty manual' },
      { text: 'Every bike has a two-year warranty from the day of delivery.' },
      { heading: 2, text: 'What is not covered' },
      { text: 'Falls, races and wear of tyres and brake pads are not covered.' },
      { heading: 2, text: 'How to claim' },
      { text: 'Write to warranty@bikeshop.example with the order number.' },
    ]);
    const chunks = await chunksOf({ 'warranty.docx': docx });
    expect(
      chunks.map(({ text, title, heading, anchor, _source }) => ({ text, title, heading, anchor, _source })),
    ).toEqual(
      expect.arrayContaining([
        {
          text: 'Every bike has a two-year warranty from the day of delivery.',
          title: 'Warranty manual',
          heading: 'Warranty manual',
          anchor: 'warranty-manual',
          _source: 'warranty.docx',
        },
        {
          text: 'Falls, races and wear of tyres and brake pads are not covered.',
          title: 'Warranty manual',
          heading: 'Warranty manual > What is not covered',
          anchor: 'what-is-not-covered',
          _source: 'warranty.docx',
        },
        {
          text: 'Write to warranty@bikeshop.example with the order number.',
          title: 'Warranty manual',
          heading: 'Warranty manual > How to claim',
          anchor: 'how-to-claim',
          _source: 'warranty.docx',
        },
      ]),
    );
    expect(chunks).toHaveLength(3);
  });

  test('a file that is not a Word document says so and how to fix it', async () => {
    await expect(readDocument('old.docx', new TextEncoder().encode('not a zip'))).rejects.toThrow(
      /Cannot read the Word document old\.docx: .*save.*as \.docx|Cannot read the Word document old\.docx: .*\.docx file/,
    );
  });

  test('an unsupported type is refused with the list of supported ones', async () => {
    await expect(readDocument('sheet.xlsx', new Uint8Array())).rejects.toThrow(/not a document type.*\.docx/);
  });
});

describe('what readDocument refuses, and the titles it finds', () => {
  test('binary bytes behind a text extension are refused, naming the file', async () => {
    const random = new Uint8Array(100_000).map((_, index) => (index * 7919 + 13) % 256);
    await expect(readDocument('fake.md', random)).rejects.toThrow(
      /fake\.md is not text: it contains NUL bytes/,
    );
    await expect(readDocument('fake.txt', random)).rejects.toThrow(/fake\.txt is not text/);
    await expect(readDocument('fake.html', random)).rejects.toThrow(/fake\.html is not text/);
    // Not UTF-8 and no NUL (Latin-1 text): refused too, with how to fix it.
    await expect(readDocument('notes.txt', Buffer.from('caffè', 'latin1'))).rejects.toThrow(
      /notes\.txt is not valid UTF-8 text.*save it as UTF-8/,
    );
    // An HTML file that declares its charset is read in it.
    const latin1 = Buffer.from(
      '<html><head><meta charset="iso-8859-1"></head><body><p>Caffè</p></body></html>',
      'latin1',
    );
    expect((await readDocument('menu.html', latin1)).text).toContain('Caffè');
  });

  test("a Markdown file's title is its first # heading (not one in a code fence); a text file has none", async () => {
    const markdown = new TextEncoder().encode(
      '```\n# not a title\n```\n\nIntro.\n\n# Shipping costs {#costs}\n\n## Italy\n\nNine euros.\n',
    );
    expect(await readDocument('shipping.md', markdown)).toMatchObject({
      title: 'Shipping costs',
      source: 'shipping.md',
    });
    expect(
      (await readDocument('plain.md', new TextEncoder().encode('No heading here.'))).title,
    ).toBeUndefined();
    expect(
      (await readDocument('notes.txt', new TextEncoder().encode('# Not markdown'))).title,
    ).toBeUndefined();
  });

  test('readDocuments refuses a file over maxBytes (default 10 MiB) before reading it, naming it and the limit', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'treeagent-documents-'));
    writeFileSync(join(folder, 'big.txt'), 'x'.repeat(2_000));
    writeFileSync(join(folder, 'small.txt'), 'small');
    await expect(readDocuments([folder], folder, { maxBytes: 1_000 })).rejects.toThrow(
      /big\.txt is 2000 bytes, over the limit of 1000 bytes \(maxBytes\): split it/,
    );
    expect(await readDocuments([folder], folder)).toHaveLength(2);
  });

  test('an empty or element-less HTML page reads as empty or plain text instead of throwing', () => {
    expect(readHtml('', { source: 'empty.html' }).document.text).toBe('');
    expect(readHtml('   ', { source: 'blank.html' }).document.text).toBe('');
    expect(readHtml('Just words.', { source: 'words.html' }).document.text).toContain('Just words.');
  });
});
